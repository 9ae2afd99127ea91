import { useQuery } from '@tanstack/react-query';
import { api } from './api';

/** GET /api/user: the account and its plan's limits (null: unlimited). */
export interface Profile {
  id: string;
  email: string;
  tier: 'free' | 'pro' | 'builder' | 'enterprise';
  namespace: string | null;
  createdAt: string;
  limits: {
    apiAccess: boolean;
    customSlugs: boolean;
    requestsPerHour: number | null;
    requestsPerMonth: number | null;
    requestsPerMinute: number | null;
    linksPerDay: number | null;
    bulkRequestsPerHour: number | null;
    trackedClicksPerMonth: number | null;
    historyDays: number;
    webhooks: number | null;
    folders: number | null;
    domains: number | null;
    overageCentsPer1000: number | null;
    overageCapCents: number | null;
  };
}

export const PROFILE_KEY = ['profile'];

export const useProfile = () => useQuery({ queryKey: PROFILE_KEY, queryFn: () => api<Profile>('/api/user') });
