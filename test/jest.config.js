const os = require('node:os');

module.exports = {
	rootDir: __dirname,
	testEnvironment: 'node',
	testMatch: ['**/*.test.js'],
	testPathIgnorePatterns: ['/node_modules/', '/e2e/'],
	setupFilesAfterEnv: ['<rootDir>/setup/canary-guard.js'],
	testTimeout: 30000,
	// The suites wait on real timers far more than they compute (agent.test.js: 56 s wall, 9 s CPU),
	// so more workers than cores: jest's default (cores - 1) ran them one at a time on CI's 2 cores.
	maxWorkers: Math.max(3, os.availableParallelism() - 1),
};
