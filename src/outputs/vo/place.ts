// Where a catalogue group or imaging facility sits, as every VO renderer takes it: the names of its
// survey and release, as the API objects write them.

export interface Place {
  survey: string;
  release: string;
}
