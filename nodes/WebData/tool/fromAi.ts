/** As n8n's editor writes "Defined automatically by the model" (texts without quotes). */
export function aiValue(key: string, description: string, type: 'string' | 'number' = 'string', fallback?: string | number): string {
	const extra = fallback === undefined ? '' : `, ${typeof fallback === 'string' ? `'${fallback}'` : fallback}`;
	return `={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('${key}', '${description}', '${type}'${extra}) }}`;
}

export const fromVersion2 = (expression: string) => ({ since: 2, expression });
