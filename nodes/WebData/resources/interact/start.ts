import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { applyCustomBody, customBodyOption } from '../../fields/customBody';
import { withoutEnvelope } from '../../helpers/objects';
import type { Operation, RunContext } from '../../types';
import { invalid } from '../../helpers/validation';
import { apiRequest, defaultDeps } from '../../transport';
import { browserCredits } from '../../budget/cost';
import { reserveJob, startUnderBudget } from '../../budget/jobs';
import { PRICES } from '../../budget/prices';
import { optionalInteger, SESSION_HINTS } from './shared';

const PROFILE_NAME_MAX = 128;

/** The body of POST /v2/interact from the Options collection: only what the user set. */
export function startBody(ctx: IExecuteFunctions, i: number): IDataObject {
	const options = ctx.getNodeParameter('options', i, {}) as IDataObject;
	const body: IDataObject = {};
	const ttl = optionalInteger(ctx, 'Time to Live (Seconds)', options.ttl, 30, 3600, 'seconds', i);
	if (ttl !== undefined) body.ttl = ttl;
	const activityTtl = optionalInteger(ctx, 'Idle Timeout (Seconds)', options.activityTtl, 10, 3600, 'seconds', i);
	if (activityTtl !== undefined) body.activityTtl = activityTtl;
	if (options.streamWebView !== undefined) {
		if (typeof options.streamWebView !== 'boolean') {
			throw invalid(ctx.getNode(), 'Stream Live View', options.streamWebView, 'it must be true or false', i);
		}
		body.streamWebView = options.streamWebView;
	}
	const hasName = options.profileName !== undefined;
	if (hasName) {
		const name = options.profileName;
		if (typeof name !== 'string' || name.trim() === '') {
			throw invalid(ctx.getNode(), 'Profile Name', name, 'it must not be empty (or remove the option)', i);
		}
		if (name.length > PROFILE_NAME_MAX) {
			throw invalid(ctx.getNode(), 'Profile Name', name, `it may have at most ${PROFILE_NAME_MAX} characters`, i);
		}
		body.profile = { name };
	}
	if (options.saveProfileChanges !== undefined) {
		if (!hasName) {
			throw invalid(
				ctx.getNode(),
				'Save Changes to Profile',
				options.saveProfileChanges,
				'it needs a Profile Name: add the "Profile Name" option too',
				i,
			);
		}
		if (typeof options.saveProfileChanges !== 'boolean') {
			throw invalid(ctx.getNode(), 'Save Changes to Profile', options.saveProfileChanges, 'it must be true or false', i);
		}
		(body.profile as IDataObject).saveChanges = options.saveProfileChanges;
	}
	return body;
}

/** Interact → Start Session: POST /v2/interact, a standalone browser session (no scrape needed). */
export const start: Operation = {
	spends: true,
	tool: {
		description:
			'Open a browser session and return its id; then drive it with the tool that runs code in a session, and close it with the tool that stops sessions when done. Costs credits while it is open.',
	},
	bodyKeys: { profile: ['profileName', 'saveProfileChanges'] },
	properties: [
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				customBodyOption,
				{
					displayName: 'Idle Timeout (Seconds)',
					name: 'activityTtl',
					type: 'number',
					typeOptions: { minValue: 10, maxValue: 3600 },
					default: 300,
					description: 'End the session after this many seconds without a call (10 to 3600)',
				},
				{
					displayName: 'Profile Name',
					name: 'profileName',
					type: 'string',
					default: '',
					placeholder: 'e.g. my-shop-login',
					description:
						'Keep cookies and storage across sessions: sessions with the same profile name share them (1 to 128 characters). Useful to stay logged in.',
				},
				{
					displayName: 'Save Changes to Profile',
					name: 'saveProfileChanges',
					type: 'boolean',
					default: true,
					description:
						'Whether the browser state is written back to the profile when the session ends. Turn off to only load the profile; only one saving session per profile may run at a time.',
				},
				{
					displayName: 'Stream Live View',
					name: 'streamWebView',
					type: 'boolean',
					default: true,
					description: 'Whether to stream a live view of the browser (see the live view URLs in the output)',
				},
				{
					displayName: 'Time to Live (Seconds)',
					name: 'ttl',
					type: 'number',
					typeOptions: { minValue: 30, maxValue: 3600 },
					default: 300,
					description: 'End the session after this many seconds in any case (30 to 3600)',
				},
			],
		},
	],
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const body = applyCustomBody(this, i, start, startBody(this, i));
		const reserved = await reserveSession(body, i, run);
		const answer = await startUnderBudget(reserved, i, async () =>
			withoutEnvelope(await apiRequest<IDataObject>(this, { method: 'POST', path: '/interact', body, itemIndex: i, hints: SESSION_HINTS }, run?.transportDeps ?? defaultDeps)),
		);
		return [{ json: answer }];
	},
};

/** Under a budget a session holds its TTL's cost until stopped; a TTL that does not fit is lowered. */
async function reserveSession(body: IDataObject, i: number, run?: RunContext) {
	const budget = run?.transportDeps.budget;
	if (!budget) return undefined;
	await budget.ready();
	const asked = typeof body.ttl === 'number' ? body.ttl : PRICES.browserTtlDefaultSeconds;
	const left = budget.left(i);
	const fits = Math.floor(left / PRICES.browserMinute) * 60;
	if (browserCredits(asked) > left && fits >= 60) {
		body.ttl = fits;
		budget.note(i, { ttlLowered: { from: asked, to: fits } });
	}
	const ttl = typeof body.ttl === 'number' ? body.ttl : asked;
	return reserveJob(run, { credits: browserCredits(ttl), what: `a browser session of up to ${ttl} s (Time to Live; ${PRICES.browserMinute} credits a minute)`, lower: 'set a lower Options → Time to Live (Seconds)' }, i);
}
