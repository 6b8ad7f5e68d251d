import { usageHistory } from './shared';

/** Account → Get Token Usage History: one item per billing period (and API key). */
export const getTokenUsageHistory = usageHistory('/team/token-usage/historical', 'tokens');
