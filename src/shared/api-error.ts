/** The shape of every error the API returns. */
export interface ApiErrorBody {
  error: string;
  message: string;
}
