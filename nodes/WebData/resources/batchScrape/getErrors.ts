import { jobGetErrors } from '../crawl/crawlAndBatch';

/** Batch Scrape → Get Errors: the URLs that failed and why. */
export const getErrors = jobGetErrors('batch');
