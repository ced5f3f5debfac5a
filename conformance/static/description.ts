// The static suite's view of its target description (--describe static=FILE): the keys it reads, each with
// its meaning in description.schema.json. Apart from fixtures.ts, which the faulty server imports too: reading
// the run's targets belongs to the suite's own processes.
import { multipart as multipartBody } from '../harness/multipart-body.ts';
import { runEnv } from '../harness/run-env.ts';

/** The part of a target description (--describe static=FILE) the static suite reads; every key with its meaning
 * is in description.schema.json. */
export interface StaticDescription {
  clusterConfig?: { name: string; content: string; workers?: number };
  modeEnv?: { development?: Record<string, string>; production?: Record<string, string> };
  uploadField?: string;
}

/** The description of the static target of this run (the same for every case). */
export const description = (runEnv.targets.static?.description ?? {}) as StaticDescription;

/** The form field of the file parts the cases send where the field is not their point: which field an upload
 * without `fieldName` takes is not stated (static/upload/field-name), so a description may name it. */
export const UPLOAD_FIELD = description.uploadField ?? 'file';

/** A multipart/form-data body of file parts, each in UPLOAD_FIELD unless it names its own field. */
export function multipart(parts: Parameters<typeof multipartBody>[0], boundary?: string): ReturnType<typeof multipartBody> {
  return multipartBody(
    parts.map((p) => ({ ...p, field: p.field ?? UPLOAD_FIELD })),
    boundary,
  );
}

