/** Texts of drafts, autosave and the leave guard (not in the spec, so not in `shared/messages`). */
export const DRAFT_TEXTS = {
  saveDraft: 'Save draft',
  publish: 'Publish',
  saving: 'Saving…',
  saved: 'Saved',
  savedOnDevice: 'Changes kept on this device',
  notSaved: 'Not saved:',
  draftSaved: 'Draft saved.',
  blogPublished: 'Blog Published!',
  draftBadge: 'Draft',
  /** Issue 59: a draft waiting for an editor. */
  submittedBadge: 'Submitted for review',
  allMyBlogs: 'All my blogs',
  restoredTitle: 'Unsaved changes restored',
  restored: (when: string) => `Your changes from ${when} were not published yet; they are back in the form. Update to publish them.`,
  discard: 'Discard changes',
  leaveTitle: 'Leave this page?',
  leaveMessage: 'You have changes that are not saved yet. Leave this page anyway?',
  leave: 'Leave',
  stay: 'Stay',
  myDrafts: 'My Drafts',
  noDrafts: 'You have no drafts. Blogs you save as a draft wait here until you publish them.',
  untitled: '(untitled)',
  updated: 'Updated',
  edit: 'Edit',
  schedule: 'Schedule',
  publishAtLabel: 'Publish at',
  publishAtHelp: 'In your time zone. The blog stays a draft, seen only by you, until then.',
  /** An editor scheduling someone else's draft (issue 59): its writer sees it too. */
  publishAtHelpReviewing: 'In your time zone. The blog stays a draft, seen by its writer and the editors, until then.',
  chooseTime: 'Choose the date and time to publish at.',
  scheduledFor: (when: string) => `Scheduled for ${when}`,
  unschedule: 'Unschedule',
  unscheduled: 'The blog is no longer scheduled; it stays a draft.',
} as const;

/** A scheduled time as the writer reads it: their own time zone and language. */
export function scheduledTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** The leave guard's dialog on the create and edit forms. */
export const LEAVE_GUARD_TEXTS = {
  title: DRAFT_TEXTS.leaveTitle,
  message: DRAFT_TEXTS.leaveMessage,
  leave: DRAFT_TEXTS.leave,
  stay: DRAFT_TEXTS.stay,
};
