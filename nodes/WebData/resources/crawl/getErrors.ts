import { jobGetErrors } from './crawlAndBatch';

/** Crawl → Get Errors: the pages that failed and the URLs robots.txt blocked. */
export const getErrors = jobGetErrors('crawl');
