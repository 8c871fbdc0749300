// The small archive the hostile corpus is put into, shared by its test (test/hostile.e2e.test.ts),
// its benchmark (bench/hostile.ts) and the fuzzing of hostile texts (bench/fuzz.ts): a survey of
// its own, so that no case depends on what any other metadata holds, with one release and one
// catalogue group, each valid as written. The cases' expected places count lines in these texts.

export const HOSTILE_SURVEY = `id: 990
name: zeta
pretty_name: Zeta
title: Zeta Hostile Survey
description: plain
pi: Nobody
contact: {name: Zeta Team, email: zeta@example.org}
website: https://zeta.example.org/
active: true
`;

export const HOSTILE_RELEASE = `name: dr1
pretty_name: Zeta DR1
version: 1
data_release_number: 1
contact: {name: Zeta Team, email: zeta@example.org}
created: 2020-01-01T00:00:00Z
updated: 2020-01-01T00:00:00Z
`;

/** The group up to its one table's columns, for a case that writes columns of its own. */
export const HOSTILE_GROUP_HEAD = `id: 9901
name: Hostile
created: 2020-01-01T00:00:00Z
updated: 2020-01-01T00:00:00Z
tables:
  - id: 99001
    name: T
    columns:
`;

/** The group with one column: line 9 is the column's id, line 11 its description. */
export const HOSTILE_GROUP = `${HOSTILE_GROUP_HEAD}      - id: 990001
        name: C
        description: plain
`;
