/**
 * The service's prices in credits: its billing page (docs.firecrawl.dev/billing, read 2026-12-07)
 * and the open-source server's billing code. nodes/FACTS.md "Price table" lists each row with its
 * source; test/unit/price-table.test.js holds the two equal.
 */
export const PRICES = {
	/** A scraped, crawled or parsed page (a 403/404 page too). */
	page: 1,
	/** A page with the JSON format (or JSON change tracking). */
	json: 4,
	/** Enhanced (stealth) proxy, also when Auto turns to it. */
	enhancedProxy: 4,
	zeroDataRetention: 1,
	lockdown: 4,
	promptInjectionCheck: 4,
	/** Each of question, query, highlights, audio, video. */
	premiumFormat: 4,
	redactPII: 4,
	/** Each PDF page after the first. */
	pdfPage: 1,
	searchPer10Results: 2,
	searchPer10ResultsZdr: 10,
	map: 1,
	browserMinute: 2,
	/** A browser session driven by plain-words prompts (420 an hour). */
	browserMinuteWithPrompt: 7,
	agentMaxCreditsDefault: 2500,
	crawlLimitDefault: 10_000,
	browserTtlDefaultSeconds: 300,
} as const;
