import { ApiError, messageOf, type ApiErrorCode } from '../api';

export const OPERATOR_ONLY = "Only the server's operator can see this page.";

// The admin API's refusals in an operator's words; any other keeps the server's own sentence. A link not found is
// the catalogue's NOT_FOUND ("Short URL not found"), which reads oddly beside a search field.
const WORDS: Partial<Record<ApiErrorCode, string>> = {
  OPERATOR_REQUIRED: OPERATOR_ONLY,
  LAST_OPERATOR: 'This is the last operator of the server: make another account an operator first.',
  OWN_ACCOUNT: 'You cannot do that to your own account. Another operator can.',
  ACCOUNT_NOT_FOUND: 'That account no longer exists; it may have just been deleted.',
  NOT_FOUND: 'No link on this server has that address. Paste the whole short URL, or the part after the domain (such as abc123).',
};

export function adminMessage(error: unknown): string {
  if (error instanceof ApiError && WORDS[error.code]) return WORDS[error.code]!;
  return messageOf(error);
}
