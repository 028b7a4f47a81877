#!/usr/bin/env node
// A manila bot in plain JavaScript (docs/bots.md): a random legal action, seeded by the engine.
import { createInterface } from "node:readline";

let state = 0;
const random = (n) => {
  // A 32-bit linear congruential generator: enough to pick among n actions.
  state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
  return Math.floor((state / 2 ** 32) * n);
};
for await (const line of createInterface({ input: process.stdin })) {
  const message = JSON.parse(line);
  let answer;
  if (message.type === "start") {
    state = message.seed % 2 ** 32; // a new game: seat, players, seed, rules, limits
    answer = { ready: true };
  } else if (message.type === "move") {
    answer = { action: message.legal[random(message.legal.length)].id };
  } else continue; // a message of a later version: nothing to answer
  process.stdout.write(JSON.stringify(answer) + "\n");
}
