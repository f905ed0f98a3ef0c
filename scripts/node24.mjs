#!/usr/bin/env node
// Runs a command with a Node.js >= 22 first on PATH.
//
//   node scripts/node24.mjs <command> [args...]
//
// Under Node >= 22 it runs the command with the current node's directory first on PATH. Under an
// older Node it installs Node 24 from the npm registry into <repo>/.tools/node24 (once), puts it
// first on PATH and points npm_config_nodedir at its headers, so that native builds target it.
// Plain JavaScript without dependencies: it must run under any Node >= 18.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';

const NODE_VERSION = '24.21.0';
const MIN_MAJOR = 22;

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const toolDir = path.join(repo, '.tools', 'node24');
const binDir = path.join(toolDir, 'node_modules', '.bin');
const isWindows = process.platform === 'win32';
const nodeBin = path.join(binDir, isWindows ? 'node.cmd' : 'node');

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node scripts/node24.mjs <command> [args...]');
  process.exit(2);
}

const major = Number(process.versions.node.split('.')[0]);
const env = { ...process.env };
const pathKey = Object.keys(env).find((k) => k.toUpperCase() === 'PATH') ?? 'PATH';
const prependPath = (dir) => {
  env[pathKey] = env[pathKey] ? `${dir}${path.delimiter}${env[pathKey]}` : dir;
};

if (major >= MIN_MAJOR) {
  prependPath(path.dirname(process.execPath));
} else {
  if (!fs.existsSync(nodeBin)) {
    console.error(
      `Node.js ${process.versions.node} is older than ${MIN_MAJOR}: installing Node.js ${NODE_VERSION} ` +
        `from the npm registry into ${path.relative(process.cwd(), toolDir) || toolDir} (once)…`,
    );
    const install = spawnSync(
      'npm',
      [
        'install',
        '--prefix',
        toolDir,
        '--no-save',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        `node@${NODE_VERSION}`,
      ],
      { stdio: ['ignore', 'ignore', 'inherit'], shell: isWindows },
    );
    if (install.error || install.status !== 0 || !fs.existsSync(nodeBin)) {
      console.error(
        `Could not install Node.js ${NODE_VERSION} into ${toolDir}` +
          (install.error ? `: ${install.error.message}` : '') +
          `. Install Node.js ${MIN_MAJOR} or newer and try again.`,
      );
      process.exit(1);
    }
  }
  prependPath(binDir);
  env.npm_config_nodedir = path.join(
    toolDir,
    'node_modules',
    'node',
    'node_modules',
    `node-${process.platform}-${process.arch}`,
  );
}

// spawn() looks the command up on the PATH of the environment it is given.
const child = spawn(command, args, { stdio: 'inherit', env, shell: isWindows });

const forward = (signal) => {
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
};
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => forward(signal));

child.on('error', (err) => {
  console.error(`Could not run ${command}: ${err.message}`);
  process.exit(127);
});
child.on('exit', (code, signal) => {
  process.exit(code ?? 128 + (constants.signals[signal] ?? 1));
});
