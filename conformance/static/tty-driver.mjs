#!/usr/bin/env node
// Runs a command on a pseudo-terminal and answers its questions as they appear, the way a person at a
// terminal would: an interactive command (`--init`) may read a terminal and nothing else, so piped answers
// prove nothing about it. The terminal comes from util-linux `script` (always on Debian).
//
//   CONFORM_TTY='{"answers":[["\\bport\\b","i","8123"]],"otherwise":""}' node tty-driver.mjs -- <command ...>
//
// A question is output that stops on an unfinished line (a prompt waiting on its line) and stays quiet for
// `quietMs`, or any output quiet for three times that. Its last line is matched against `answers` (regular
// expression source, flags, answer) in order; the first match answers, else `otherwise`. After `maxAnswers`
// the terminal is closed (end of input) and the command is stopped if it does not end. The command's
// terminal output goes to stdout; stderr gets one line per question, `tty-driver: asked <json> answered
// <json>`, and `tty-driver: exit <code>`. The exit status is the command's.
import { spawn } from 'node:child_process';

const settings = { answers: [], otherwise: '', quietMs: 400, maxAnswers: 12, ...JSON.parse(process.env.CONFORM_TTY ?? '{}') };
const separator = process.argv.indexOf('--');
const words = separator === -1 ? [] : process.argv.slice(separator + 1);
if (words.length === 0) {
  process.stderr.write('usage: CONFORM_TTY=<json> node tty-driver.mjs -- <command ...>\n');
  process.exit(2);
}

const quote = (word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);
// biome-ignore lint/suspicious/noControlCharactersInRegex: terminal control sequences are removed from questions
const CONTROL = /\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Za-z0-9]|[\x00-\x08\x0b\x0c\x0e-\x1f]/g;

const child = spawn('script', ['-qfec', words.map(quote).join(' '), '/dev/null'], {
  stdio: ['pipe', 'pipe', 'inherit'],
  env: { ...process.env, SHELL: '/bin/sh' },
});
child.stdin.on('error', () => {});

let pending = '';
let echo = '';
let lastOutput = Date.now();
let answered = 0;
let closing = false;

child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  pending += chunk.toString('utf8');
  // The terminal echoes what was typed: that is not the next question.
  if (echo !== '') {
    const n = Math.min(echo.length, pending.length);
    if (echo.slice(0, n) === pending.slice(0, n)) {
      echo = echo.slice(n);
      pending = pending.slice(n);
    } else {
      echo = ''; // no echo (the terminal's echo is off): all of it is output
    }
  }
  lastOutput = Date.now();
});

function answerFor(question) {
  for (const [source, flags, answer] of settings.answers) if (new RegExp(source, flags).test(question)) return answer;
  return settings.otherwise;
}

const timer = setInterval(() => {
  const text = pending.replace(CONTROL, '').replace(/\r/g, '');
  if (closing || text.trim() === '') return;
  const quiet = Date.now() - lastOutput;
  const waitingOnLine = !text.endsWith('\n');
  if (quiet < settings.quietMs || (!waitingOnLine && quiet < 3 * settings.quietMs)) return;
  const question = text.split('\n').filter((line) => line.trim() !== '').at(-1) ?? '';
  const answer = answerFor(question);
  process.stderr.write(`tty-driver: asked ${JSON.stringify(question.trim())} answered ${JSON.stringify(answer)}\n`);
  pending = '';
  echo = `${answer}\r\n`;
  child.stdin.write(`${answer}\r`);
  answered += 1;
  if (answered >= settings.maxAnswers) {
    closing = true;
    process.stderr.write(`tty-driver: ${answered} questions answered; closing the terminal\n`);
    child.stdin.end();
    setTimeout(() => child.kill('SIGTERM'), 3000).unref();
    setTimeout(() => child.kill('SIGKILL'), 5000).unref();
  }
}, 50);

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    child.kill(signal);
    process.exit(1);
  });
}

child.on('close', (code, signal) => {
  clearInterval(timer);
  const status = code ?? (signal ? 128 : 1);
  process.stderr.write(`tty-driver: exit ${status}\n`);
  process.exitCode = status;
});
