/** One thing a source found wrong with a destination, and how much it weighs against the score. */
export interface Finding {
  threat: string;
  /** Points taken off the score of 100. */
  penalty: number;
}

export type TrustStatus = 'safe' | 'warning' | 'unsafe';

export interface Verdict {
  score: number;
  status: TrustStatus;
  threats: string[];
  source: string;
}

/** Threat types known to be dangerous: a match from a threat list makes a link unsafe outright. */
export const SEVERE: Record<string, number> = {
  MALWARE: 95,
  SOCIAL_ENGINEERING: 95,
  POTENTIALLY_HARMFUL_APPLICATION: 80,
  UNWANTED_SOFTWARE: 70,
};

/** Spec 2.10: 80-100 safe, 40-79 warning, 0-39 unsafe. */
export const statusOf = (score: number): TrustStatus => (score >= 80 ? 'safe' : score >= 40 ? 'warning' : 'unsafe');

export function verdictOf(findings: Finding[], sources: string[]): Verdict {
  const penalty = findings.reduce((sum, f) => sum + f.penalty, 0);
  const score = Math.max(0, Math.min(100, 100 - penalty));
  return { score, status: statusOf(score), threats: [...new Set(findings.map((f) => f.threat))].sort(), source: sources.join(',') };
}
