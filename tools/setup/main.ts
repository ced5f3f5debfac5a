// The set-up step as a command (./set-up.ts says what it does for each purpose):
//   tsx tools/setup/main.ts --for start|test|bench
import { parseArgs } from 'node:util';
import { PURPOSES, type Purpose } from './debian-packages.ts';
import { setUp } from './set-up.ts';

const USAGE = `usage: tsx tools/setup/main.ts --for ${PURPOSES.join('|')}`;

function main(): number {
  let purpose: string | undefined;
  try {
    purpose = parseArgs({ options: { for: { type: 'string' } } }).values.for;
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  if (!PURPOSES.includes(purpose as Purpose)) {
    console.error(USAGE);
    return 2;
  }
  return setUp(purpose as Purpose);
}

process.exitCode = main();
