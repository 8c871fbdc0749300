// Whether a process is still running here: the files a build names after its process (its output
// folder while it is built, a lock, the cache's half-written entries) are left over once it is not.

import { readFileSync } from 'node:fs';

/** Whether a process of this id is running on this machine. */
export function processRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // Running, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A process killed but not yet reaped by its parent (a zombie, which a container's first
  // process may never reap) still answers signals: on Linux its state says it has ended.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}
