/**
 * Start-up cannot go on for a reason the operator can fix (a database that is down, a wrong password): main
 * prints the message alone, without a stack, and exits 1. The message names the setting to look at.
 */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}
