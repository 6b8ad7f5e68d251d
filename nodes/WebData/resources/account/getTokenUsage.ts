import { currentUsage } from './shared';

/** Account → Get Token Usage: GET /v2/team/token-usage (tokens of the extract endpoint). */
export const getTokenUsage = currentUsage('/team/token-usage');
