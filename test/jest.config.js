module.exports = {
	rootDir: __dirname,
	testEnvironment: 'node',
	testMatch: ['**/*.test.js'],
	testPathIgnorePatterns: ['/node_modules/', '/e2e/'],
	setupFilesAfterEnv: ['<rootDir>/setup/canary-guard.js'],
	testTimeout: 30000,
};
