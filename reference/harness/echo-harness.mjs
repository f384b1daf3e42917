#!/usr/bin/env node
// A scripted command-line harness for the reference workspace: what Claude Code or Copilot would be,
// small enough to read. `send` reads one message on stdin and answers word by word (an instruction
// skill's raw `/word task` text included: it says which skill it would load); `login`, `logout` and
// `status` keep a sign-in per user in ECHO_HARNESS_STATE (a folder). It refuses messages until signed in.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [action] = process.argv.slice(2);
const state = process.env.ECHO_HARNESS_STATE;
const user = process.env.CHATSURFACE_USER ?? 'someone';
if (!state) {
  console.error('ECHO_HARNESS_STATE is not set: the harness has nowhere to keep its sign-in.');
  process.exit(2);
}
mkdirSync(state, { recursive: true });
const file = join(state, `${encodeURIComponent(user)}.signed-in`);
const signedIn = () => existsSync(file);

if (action === 'login') {
  writeFileSync(file, new Date().toISOString());
  console.log(`Signed in to the echo harness as ${user}.`);
} else if (action === 'logout') {
  rmSync(file, { force: true });
  console.log('Signed out of the echo harness.');
} else if (action === 'status') {
  console.log(JSON.stringify({ signedIn: signedIn(), detail: signedIn() ? `Signed in to the echo harness as ${user} since ${readFileSync(file, 'utf8')}.` : 'Not signed in to the echo harness: type /login.' }));
} else if (action === 'send') {
  if (!signedIn()) {
    console.error('Not signed in: type /login first.');
    process.exit(1);
  }
  let text = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) text += chunk;
  const skill = /^\/([\w-]+)\s+([\s\S]+)$/.exec(text.trim());
  const answer = skill ? `Echo harness: I would load the ${skill[1]} skill and then do: ${skill[2].trim()}` : `Echo harness heard: ${text.trim()}`;
  for (const word of answer.split(' ')) {
    process.stdout.write(word + ' ');
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
  process.stdout.write('\n');
} else {
  console.error(`Unknown action "${action ?? ''}": use send, login, logout or status.`);
  process.exit(2);
}
