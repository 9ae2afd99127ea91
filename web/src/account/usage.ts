import { useQuery } from '@tanstack/react-query';
import { api } from '../api';

/** GET /api/usage: this billing cycle's tracked clicks, overage and grace. */
export interface Usage {
  cycle: { start: string; end: string };
  trackedClicks: number;
  /** null: unlimited */
  includedClicks: number | null;
  overageClicks: number;
  overageChargeCents: number;
  /** The cap in force; null: no cap. */
  overageLimitCents: number | null;
  capReached: boolean;
  grace: { active: boolean; startedAt: string | null; endsAt: string | null };
  recordingPaused: boolean;
}

export const USAGE_KEY = ['usage'];

export const useUsage = () => useQuery({ queryKey: USAGE_KEY, queryFn: () => api<Usage>('/api/usage') });
