import { randomBytes } from 'node:crypto';
import { AppError, errors } from '../errors.js';

/** The name a webhook is shown by: given (1-100 characters), or its URL's host. */
export function checkName(value: unknown, url: string): string {
  if (value === undefined || value === null) return new URL(url).hostname;
  if (typeof value !== 'string' || value.trim().length === 0 || value.length > 100) {
    throw new AppError('INVALID_NAME', 'name must be 1-100 characters');
  }
  return value.trim();
}

/** The signing secret: given (1-256 characters), or a new random one. */
export function checkSecret(value: unknown): string {
  if (value === undefined || value === null) return `whsec_${randomBytes(24).toString('hex')}`;
  if (typeof value !== 'string' || value.length === 0 || value.length > 256) {
    throw errors.invalidSecret();
  }
  return value;
}
