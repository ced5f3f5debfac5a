// Runs StrykerJS with the options in the JSON file named by its argument: a process of its own, under
// main.ts, because Stryker exits at once on SIGINT/SIGTERM/SIGHUP (leaving its workers and their conformance
// runs behind); main.ts stops those in order (interrupt.ts).
import { readFileSync } from 'node:fs';
import { Stryker } from '@stryker-mutator/core';

const options = JSON.parse(readFileSync(process.argv[2]!, 'utf8'));
await new Stryker(options).runMutationTest();
