'use strict';
// Runs under Node 24 (sqlite3 of the n8n host is built for it):
//   node read-execution.js <n8n host dir> <database.sqlite> <workflowId>
// Prints the newest execution of the workflow as an IRun-like JSON object on one line, or "null".
//
// Needed because `n8n execute` loses the result of an execution that ends very early (for example
// a workflow with parameter issues): its CLI then only says "No active execution found", while the
// execution with the real error is saved in the database (data serialized with `flatted`).
const path = require('node:path');

const [hostDir, dbFile, workflowId] = process.argv.slice(2);
const fromHost = (name) => require(require.resolve(name, { paths: [path.join(hostDir, 'node_modules', 'n8n'), hostDir] }));
const sqlite3 = fromHost('sqlite3');
const { parse } = fromHost('flatted');

const db = new sqlite3.Database(dbFile, sqlite3.OPEN_READONLY);
db.get(
	`SELECT e.id, e.workflowId, e.status, e.finished, e.mode, e.startedAt, e.stoppedAt, d.data
	   FROM execution_entity e JOIN execution_data d ON d.executionId = e.id
	  WHERE e.workflowId = ? ORDER BY e.id DESC LIMIT 1`,
	[workflowId],
	(err, row) => {
		db.close();
		if (err) {
			console.error(err.message);
			process.exit(2);
		}
		if (!row) return void console.log('null');
		const data = parse(row.data);
		console.log(
			JSON.stringify({
				data,
				mode: row.mode,
				status: row.status,
				finished: !!row.finished,
				startedAt: row.startedAt,
				stoppedAt: row.stoppedAt,
				executionId: String(row.id),
				workflowId: row.workflowId,
			}),
		);
	},
);
