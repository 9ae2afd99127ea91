import { useQuery } from '@tanstack/react-query';
import { snip, type Answer } from '../api';

/** GET /api/usage: this billing cycle's tracked clicks, overage and grace. */
export type Usage = Answer<'/api/usage', 'get'>;

export const USAGE_KEY = ['usage'];

export const useUsage = () => useQuery({ queryKey: USAGE_KEY, queryFn: () => snip.get('/api/usage') });
