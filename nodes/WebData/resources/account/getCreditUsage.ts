import { currentUsage } from './shared';

/** Account → Get Credit Usage: GET /v2/team/credit-usage (remaining and plan credits, billing period). */
export const getCreditUsage = currentUsage('/team/credit-usage');
