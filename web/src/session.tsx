import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { ApiError, onSessionLost, setCsrfToken, snip, type Answer } from './api';

/** The signed-in account and the session's CSRF token (sign-in, sign-up, a password change and the session answer alike). */
type SessionAnswer = Answer<'/api/auth/session', 'get'>;
export type SessionAccount = SessionAnswer['account'];
export type Tier = SessionAccount['tier'];

/** `byChoice`: this page signed out, rather than finding the session gone (signing in again then leads to the links). */
type State = { status: 'loading' } | { status: 'signed-out'; byChoice?: boolean } | { status: 'signed-in'; account: SessionAccount };

interface Session {
  state: State;
  /** The signed-in account; only inside pages behind RequireSession. */
  account: SessionAccount;
  signIn(email: string, password: string): Promise<void>;
  signOut(): Promise<void>;
  /** Re-reads the session (after a tier or namespace change). */
  refresh(): Promise<void>;
  /** Takes a new session answer (a password change issues a new session). */
  adopt(answer: SessionAnswer): void;
}

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<State>({ status: 'loading' });

  const adopt = useCallback((answer: SessionAnswer) => {
    setCsrfToken(answer.csrfToken);
    setState({ status: 'signed-in', account: answer.account });
  }, []);
  const forget = useCallback((byChoice = false) => {
    setCsrfToken(null);
    setState({ status: 'signed-out', byChoice });
  }, []);

  const refresh = useCallback(async () => {
    try {
      adopt(await snip.get('/api/auth/session'));
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) forget();
      else throw error;
    }
  }, [adopt, forget]);

  useEffect(() => {
    onSessionLost(() => forget());
    refresh().catch(() => forget());
    return () => onSessionLost(null);
  }, [refresh, forget]);

  const session = useMemo<Session>(
    () => ({
      state,
      get account() {
        if (state.status !== 'signed-in') throw new Error('No session');
        return state.account;
      },
      signIn: async (email, password) => adopt(await snip.post('/api/auth/sign-in', { body: { email, password } })),
      signOut: async () => {
        try {
          await snip.post('/api/auth/sign-out');
        } finally {
          forget(true);
        }
      },
      refresh,
      adopt,
    }),
    [state, adopt, forget, refresh],
  );
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

/** The signed-in account (pages behind RequireSession only). */
export const useAccount = (): SessionAccount => useSession().account;

