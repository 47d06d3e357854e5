// Where the build puts what npm start runs.
export const STANDALONE_SERVER = '.next/standalone/server.js';
export const START_BUNDLE = '.next/plant-store-start.mjs';
