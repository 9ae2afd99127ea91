import { describe, expect, it } from 'vitest';
import { nodeVersionProblem } from '../../src/runtime/node-version.js';

/** The entry points refuse a Node.js whose SQLite driver would crash, with one line saying what to do. */
describe('supported Node.js versions', () => {
  it.each(['22.0.0', '22.23.3', '24.21.0', '26.1.0'])('runs on %s', (version) => {
    expect(nodeVersionProblem(version, '/usr/bin/node')).toBeNull();
  });

  it.each(['20.20.2', '18.19.0', '21.7.3'])('refuses %s in one line naming the version, the binary and the way out', (version) => {
    const problem = nodeVersionProblem(version, '/usr/bin/node');
    expect(problem).toContain(`this is Node.js ${version} (/usr/bin/node)`);
    expect(problem).toContain('Node.js 22 or newer');
    expect(problem).toContain('npm start');
    expect(problem).not.toContain('\n');
  });

  it('is what this test run itself passes (the suite runs on a supported Node.js)', () => {
    expect(nodeVersionProblem(process.versions.node, process.execPath)).toBeNull();
  });
});
