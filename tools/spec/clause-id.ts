// A case ID is `<clause-id>/<behaviour>`, the clause ID `<surface>/<area>/<rule>`.
export function clauseIdOf(testId: string): string {
  return testId.split('/').slice(0, 3).join('/');
}
