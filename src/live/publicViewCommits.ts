import type { ReportedCommits } from '../readmodel/reportedCommits.js';
import type { LocalCommits } from './changeSignal.js';

/**
 * This process's public-view commits, from all its commits: the checkpoint and the ids of the
 * matches each changed. A promoted rebuild or a reset replaces the whole view, so it tells of
 * every match (null).
 */
export function publicViewCommits(commits: ReportedCommits, publicView: string): LocalCommits {
  return (listener) =>
    commits(({ projection, checkpoint, changes }) => {
      if (projection !== publicView) return;
      listener({ checkpoint, matchIds: changes === null ? null : changes.filter((change) => change.collection === publicView).map((change) => change.id) });
    });
}
