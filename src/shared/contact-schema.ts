import { z } from 'zod';
import { CONTACT_MESSAGE_MAX_LENGTH, EMAIL_MAX_LENGTH } from './constants.js';
import { messages } from './messages.js';
import { requiredText } from './required-text.js';

export const contactSchema = z.object({
  email: requiredText(messages.addEmail, EMAIL_MAX_LENGTH, 'That e-mail address is too long.').pipe(z.email({ message: 'Enter a valid e-mail address.' })),
  message: requiredText(messages.addMessage, CONTACT_MESSAGE_MAX_LENGTH, `Your message is too long: at most ${CONTACT_MESSAGE_MAX_LENGTH} characters.`),
});
export type ContactInput = z.infer<typeof contactSchema>;
