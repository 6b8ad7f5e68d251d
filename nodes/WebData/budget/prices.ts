/**
 * The service's prices in credits: its billing page and the open-source server's billing code, each
 * row with its source in nodes/FACTS.md "Price table" (test/unit/price-table.test.js holds them equal).
 */
export const PRICES = {
	page: 1,
	json: 4,
	enhancedProxy: 4,
	zeroDataRetention: 1,
	lockdown: 4,
	promptInjectionCheck: 4,
	premiumFormat: 4,
	redactPII: 4,
	pdfPage: 1,
	searchPer10Results: 2,
	searchPer10ResultsZdr: 10,
	map: 1,
	browserMinute: 2,
	browserMinuteWithPrompt: 7,
	agentMaxCreditsDefault: 2500,
	crawlLimitDefault: 10_000,
	browserTtlDefaultSeconds: 300,
} as const;
