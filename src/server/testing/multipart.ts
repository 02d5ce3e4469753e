/** A file part of a multipart form: the field (default `image`), its bytes, name and type. */
export interface FilePart {
  name?: string;
  data: Buffer;
  filename: string;
  type?: string;
}

/** Encodes a multipart form as a browser's `FormData` would, ready for `app.inject`. */
export async function multipart(fields: Record<string, string>, file?: FilePart) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) {
    form.append(file.name ?? 'image', new Blob([new Uint8Array(file.data)], { type: file.type ?? 'application/octet-stream' }), file.filename);
  }
  const encoded = new Response(form);
  return {
    payload: Buffer.from(await encoded.arrayBuffer()),
    headers: { 'content-type': encoded.headers.get('content-type')! },
  };
}
