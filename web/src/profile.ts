import { useQuery } from '@tanstack/react-query';
import { snip, type Answer } from './api';

/** GET /api/user: the account and its plan's limits (null: unlimited). */
export type Profile = Answer<'/api/user', 'get'>;

export const PROFILE_KEY = ['profile'];

export const useProfile = () => useQuery({ queryKey: PROFILE_KEY, queryFn: () => snip.get('/api/user') });
