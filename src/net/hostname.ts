/** A hostname in its one spelling for comparing and storing: no surrounding space, lower case, no trailing dot. */
export const normalHostname = (raw: string): string => raw.trim().toLowerCase().replace(/\.$/, '');
