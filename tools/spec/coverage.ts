// Clause coverage: which must-clauses have at least one conformance case.
import { type Catalog, SURFACES, type Surface } from './catalog.ts';

export interface SurfaceCoverage {
  surface: Surface;
  clauses: number;
  must: number;
  mustCovered: number;
  /** Must-clauses without any case: visible gaps. */
  uncovered: string[];
}

export function coverage(catalog: Catalog, caseClauses: Iterable<string>): SurfaceCoverage[] {
  const covered = new Set(caseClauses);
  return SURFACES.map((surface) => {
    const clauses = catalog.clauses.filter((c) => c.surface === surface);
    const must = clauses.filter((c) => c.level === 'must');
    const uncovered = must.filter((c) => !covered.has(c.id)).map((c) => c.id);
    return { surface, clauses: clauses.length, must: must.length, mustCovered: must.length - uncovered.length, uncovered };
  });
}
