import { usageHistory } from './shared';

/** Account → Get Credit Usage History: one item per billing period (and API key). */
export const getCreditUsageHistory = usageHistory('/team/credit-usage/historical', 'credits');
