// A case that cannot get far enough to judge its clause (its setup was refused, an answer it needs could not
// be read, a prerequisite call failed) ends as `error`, not `fail`: no claim of conformance is made either
// way, and the report names the real cause so the user looks in the right place.

/** Thrown by a case (or the harness) when the clause cannot be judged; `cause` says why, in full. */
export class Inconclusive extends Error {
  override name = 'Inconclusive';
}

/** The case did not finish within its time limit: which of its steps hung is unknown to the harness. */
export class CaseTimeout extends Inconclusive {
  override name = 'CaseTimeout';
}

/** Whether `err` means "could not judge" rather than "judged and found wrong". A target that fails to
 * start for a case is the case's setup refused (launch.ts throws TargetStartError, a subclass). */
export function isInconclusive(err: unknown): err is Inconclusive {
  return err instanceof Inconclusive;
}

/** Thrown when the case finds, once running, that this target cannot stage it (for example its command
 * template needs a file the case does not write): the case is `not-applicable` with this reason. */
export class NotApplicable extends Error {
  override name = 'NotApplicable';
}
