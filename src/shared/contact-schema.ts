import { z } from 'zod';
import { CONTACT_MESSAGE_MAX_LENGTH, EMAIL_MAX_LENGTH } from './constants.js';
import { messages } from './messages.js';

export const contactSchema = z.object({
  email: z
    .string({ message: messages.addEmail })
    .trim()
    .min(1, messages.addEmail)
    .max(EMAIL_MAX_LENGTH, 'That e-mail address is too long.')
    .pipe(z.email({ message: 'Enter a valid e-mail address.' })),
  message: z
    .string({ message: messages.addMessage })
    .trim()
    .min(1, messages.addMessage)
    .max(CONTACT_MESSAGE_MAX_LENGTH, `Your message is too long: at most ${CONTACT_MESSAGE_MAX_LENGTH} characters.`),
});
export type ContactInput = z.infer<typeof contactSchema>;
