/**
 * The catalogue of the API's error texts (data only, no imports: the unit test
 * test/unit/web-server-errors.test.ts reads it beside the service's source). server-errors.ts uses it.
 */

/** What one API text means here: the form field it is about (when it has one) and the message key. */
export interface Meaning { field?: string, key: string }

/** Texts that only a fault of this app can cause (a malformed call): the person can only try again. */
const OUR_FAULT: Meaning = { key: 'errors.unexpected' }

/**
 * Every `{"error"}` text the API can send to this app's calls (src/lib/errors.ts, the throw sites and
 * the routes' `messages`; docs/api/conventions.md › Everywhere), to a field and a message key in en.json and de.json.
 * A text with several meanings lists them: the first whose field the form has wins, else the first.
 * Texts not listed here: "<field> must …" (the generic sentences of validation), "invalid <field>" for
 * characters that cannot be stored (errors.invalidCharacters beside the field) and 5xx failures.
 */
/**
 * `invalid <field>` for a field the catalogue has no text for: the service's answer to characters it cannot
 * store (U+0000, a lone surrogate), the field by its path (`template.title`); the group is its last part,
 * the form's field.
 */
export const UNSTORABLE = /^invalid (?:[a-z_]+\.)*([a-z_]+)$/

export const SERVER_ERRORS: Record<string, Meaning | readonly Meaning[]> = {
  // Signing in, registering, the profile.
  'invalid email': { field: 'email', key: 'errors.emailInvalid' },
  'email is required': { field: 'email', key: 'errors.emailRequired' },
  'email already registered': { field: 'email', key: 'errors.emailTaken' },
  'password is required': { field: 'password', key: 'errors.passwordRequired' },
  'password must be at least 8 characters long': { field: 'password', key: 'errors.passwordShort' },
  'password must be at most 128 characters long': { field: 'password', key: 'errors.passwordLong' },
  'invalid email or password': { field: 'email', key: 'errors.credentials' },
  'account is blocked': { key: 'errors.blocked' },
  // Getting back in (docs/api/accounts.md › Getting back in): codes, a new password, the current one when changing it.
  'invalid or expired code': { field: 'code', key: 'codes.errors.invalid' },
  'invalid credentials': { field: 'current_password', key: 'changePassword.errors.wrongCurrent' },
  'code is required': { field: 'code', key: 'codes.errors.codeRequired' },
  'email verification by code is off': { key: 'verify.errors.off' },
  // The profile's language is set by the app from its own two languages (api/profile-locale.ts), silently.
  'invalid locale': OUR_FAULT,
  unauthorized: { key: 'errors.signedOut' },
  'invalid refresh token': { key: 'errors.signedOut' },
  'first_name must not be blank': { field: 'first_name', key: 'errors.firstNameRequired' },
  'last_name must not be blank': { field: 'last_name', key: 'errors.lastNameRequired' },
  'invalid phone': { field: 'phone', key: 'errors.phoneInvalid' },
  'user not found': { key: 'errors.userNotFound' },
  // Places.
  'invalid latitude': { field: 'latitude', key: 'errors.latitudeInvalid' },
  'invalid longitude': { field: 'longitude', key: 'errors.longitudeInvalid' },
  'latitude is required': { field: 'latitude', key: 'errors.latitudeInvalid' },
  'longitude is required': { field: 'longitude', key: 'errors.longitudeInvalid' },
  'latitude and longitude are required': { field: 'latitude', key: 'errors.locationRequired' },
  'lat and lon are required': { field: 'latitude', key: 'errors.locationRequired' },
  'latitude and longitude must be given together': { field: 'latitude', key: 'errors.locationTogether' },
  'invalid radius': [{ field: 'radius_meters', key: 'availability.errors.radius' }, { field: 'radius', key: 'volunteer.errors.radius' }],
  // Asking for help and the requester's own request.
  'invalid request type': [{ field: 'request_type_id', key: 'ask.errors.kind' }, { field: 'request_type_ids', key: 'availability.errors.kinds' }],
  'request_type_id is required': { field: 'request_type_id', key: 'ask.errors.kind' },
  'title must not be blank': { field: 'title', key: 'ask.errors.title' },
  'description must not be blank': { field: 'description', key: 'ask.errors.description' },
  'address must not be blank': { field: 'address', key: 'ask.errors.address' },
  // docs/api/on-behalf.md › Coordinators and clients: a client's request takes the client's address when left out; a client without one needs it here.
  'address is required': { field: 'address', key: 'ask.errors.address' },
  // docs/api/on-behalf.md › Coordinators and clients: coordinators and their clients.
  'coordinator role required': { key: 'errors.coordinatorRequired' },
  'client not found': { key: 'errors.clientNotFound' },
  // Only erasing a client's record calls with this text here (DELETE /clients/{id}; the app erases no account).
  'finish or cancel your open requests first': { key: 'errors.clientRequestInProgress' },
  'consent is required': { field: 'consent', key: 'errors.consentRequired' },
  'invalid consent': { field: 'consent', key: 'errors.consentRequired' },
  // docs/api/on-behalf.md › Texts to a client: the texts form offers only the three ways, so only a fault of ours sends this.
  'invalid texts': OUR_FAULT,
  'invalid client id': OUR_FAULT,
  'invalid status': OUR_FAULT,
  'desired_completion_date must be in the future': { field: 'desired_completion_date', key: 'ask.errors.whenPast' },
  // docs/api/schedule.md › A time window on a request: the app checks a window before sending it, so only a fault of ours sends these.
  'window_start and window_end go together': OUR_FAULT,
  'window_end must be after window_start': OUR_FAULT,
  'window is longer than 24 hours': OUR_FAULT,
  'window must be in the future': OUR_FAULT,
  'desired_completion_date must equal window_end': OUR_FAULT,
  // docs/api/schedule.md › Series: help on a schedule.
  'invalid days': { field: 'days', key: 'series.errors.days' },
  'invalid start_time': { field: 'start_time', key: 'series.errors.startTime' },
  'invalid duration_minutes': { field: 'duration_minutes', key: 'series.errors.duration' },
  'invalid every_weeks': { field: 'every_weeks', key: 'series.errors.everyWeeks' },
  'invalid starts_on': { field: 'starts_on', key: 'series.errors.startsOn' },
  'invalid ends_on': { field: 'ends_on', key: 'series.errors.endsOn' },
  'invalid return_time': { field: 'return_time', key: 'series.errors.returnTime' },
  'invalid series id': OUR_FAULT,
  'series not found': { key: 'series.errors.notFound' },
  'only the requester can change a series': { key: 'series.errors.notRequester' },
  'series is not in pending_moderation status': { key: 'series.errors.alreadyDecided' },
  'cannot moderate own series': { key: 'series.errors.own' },
  'create_request permission required': { key: 'ask.errors.noPermission' },
  'request not found': { key: 'volunteer.errors.requestNotFound' },
  'only the requester can accept a response': { key: 'request.errors.notRequester' },
  'only the requester can reject a response': { key: 'request.errors.notRequester' },
  'only the requester can complete a request': { key: 'request.errors.notRequester' },
  'only the requester can cancel a request': { key: 'request.errors.notRequester' },
  'a response has already been accepted for this request': { key: 'request.errors.alreadyAccepted' },
  'response is already accepted': { key: 'request.errors.alreadyAccepted' },
  'request is not in progress': { key: 'request.errors.notInProgress' },
  // Needs and matching (docs/api/visits.md): the app does not send these fields yet.
  'invalid capabilities': OUR_FAULT,
  'invalid gender': OUR_FAULT,
  'invalid languages': OUR_FAULT,
  'invalid needs': OUR_FAULT,
  'invalid default_needs': OUR_FAULT,
  'invalid suitable': OUR_FAULT,
  'invalid request type id': OUR_FAULT,
  'request type not found': OUR_FAULT,
  'set your gender in your profile first': { key: 'visit.errors.genderFirst' },
  // Texts (docs/api/messaging.md › Texts): confirming the profile's phone by a code texted to it.
  'no phone number': { key: 'phoneTexts.errors.noPhone' },
  'not a mobile number': { key: 'phoneTexts.errors.notMobile' },
  'texts are stopped for this number: reply START first': { key: 'phoneTexts.errors.stopped' },
  // Visits checked in and out, hours and mileage (docs/api/visit-checks.md).
  'not checked in': { key: 'visit.errors.notCheckedIn' },
  'only the assigned volunteer can do this': { key: 'visit.errors.onlyVolunteer' },
  'only the requester can do this': { key: 'visit.errors.onlyRequester' },
  'only the assigned volunteer or the requester can see this': { key: 'visit.errors.onlyParties' },
  'request is not completed': { key: 'visit.errors.notCompleted' },
  'too late to change': { key: 'visit.errors.tooLate' },
  'visit checks are off': { key: 'visit.errors.off' },
  'invalid minutes': OUR_FAULT,
  'invalid distance_km': OUR_FAULT,
  'invalid worried': OUR_FAULT,
  'request is already completed': { key: 'request.errors.alreadyCompleted' },
  'request cannot be cancelled in its current status': { key: 'request.errors.cannotCancel' },
  // docs/api/schedule.md › Confirmation, reminders, expiry: a volunteer's confirmation, a requester's "still needed".
  'only the assigned volunteer can confirm': { key: 'request.errors.notAssignedVolunteer' },
  'only the requester can say a request is still needed': { key: 'request.errors.notRequester' },
  'request is not approved': { key: 'request.errors.notApproved' },
  'rating must be an integer from 1 to 5': { field: 'rating', key: 'complete.errors.rating' },
  'rating is required': { field: 'rating', key: 'complete.errors.rating' },
  // Offering help.
  'already responded to this request': { key: 'volunteer.errors.alreadyOffered' },
  'request is not open for responses': { key: 'volunteer.errors.notOpen' },
  'cannot respond to own request': { key: 'volunteer.errors.ownRequest' },
  'respond_request permission required': { key: 'volunteer.errors.noPermission' },
  'response not found': { key: 'volunteer.errors.offerNotFound' },
  'response is already cancelled': { key: 'volunteer.errors.alreadyWithdrawn' },
  'response is already rejected': { key: 'volunteer.errors.alreadyRejected' },
  'only the volunteer who responded can withdraw a response': { key: 'volunteer.errors.notYourOffer' },
  'cannot withdraw from a completed request': { key: 'volunteer.errors.completed' },
  'cannot withdraw from a cancelled request': { key: 'volunteer.errors.cancelled' },
  'your checks do not allow offering help yet': { key: 'volunteer.errors.checksMissing' },
  'only the invited volunteer can decline': { key: 'volunteer.errors.notInvited' },
  // Availability.
  'invalid max_alerts_per_day': { field: 'max_alerts_per_day', key: 'availability.errors.perDay' },
  'location required to go on duty': { field: 'on_duty', key: 'availability.errors.locationRequired' },
  'volunteer role required': { key: 'availability.errors.volunteerOnly' },
  // Moderation and administration.
  'moderator role required': { key: 'moderation.errors.notModerator' },
  'comment is required when rejecting': { field: 'comment', key: 'moderation.errors.commentRequired' },
  'request is not in pending_moderation status': { key: 'moderation.errors.alreadyDecided' },
  'cannot moderate own request': { key: 'moderation.errors.own' },
  'admin role required': { key: 'admin.errors.notAdmin' },
  // Reports for funders (docs/api/on-behalf.md › Reports for funders).
  'view_reports permission required': { key: 'reports.errors.noPermission' },
  'invalid from': { field: 'from', key: 'reports.errors.invalidFrom' },
  'invalid to': { field: 'to', key: 'reports.errors.invalidTo' },
  'range is too long': { field: 'from', key: 'reports.errors.tooLong' },
  'invalid by': { field: 'by', key: 'reports.errors.invalidBy' },
  'cannot remove the last admin': { key: 'admin.errors.lastAdmin' },
  'cannot block yourself': { key: 'admin.errors.blockSelf' },
  'role not found': { key: 'admin.errors.roleNotFound' },
  // Checks that vet volunteers (docs/api/accounts.md › Checks that vet volunteers).
  'invalid kind': { field: 'kind', key: 'admin.errors.checkKind' },
  'invalid valid_until': { field: 'valid_until', key: 'admin.errors.checkDate' },
  'check not found': { key: 'admin.errors.checkNotFound' },
  // Concerns (docs/api/help.md › Concerns).
  'too many requests': { key: 'errors.tooManyConcerns' },
  'text must be 10 to 2000 characters': { field: 'text', key: 'concerns.errors.text' },
  'invalid outcome': { field: 'outcome', key: 'moderation.errors.outcome' },
  'note is required': { field: 'note', key: 'moderation.errors.noteRequired' },
  'concern not found': { key: 'moderation.errors.concernNotFound' },
  'concern is already resolved': { key: 'moderation.errors.concernResolved' },
  'blocked needs a subject user': { field: 'outcome', key: 'moderation.errors.blockNeedsPerson' },
  // Any call.
  'too many requests, try again later': { key: 'errors.tooMany' },
  // Notification settings, devices and unsubscribing (docs/api/messaging.md › Deliveries and e-mail).
  'invalid type': [{ field: 'email_types', key: 'settings.errors.types' }, { field: 'push_types', key: 'settings.errors.types' }, { field: 'sms_types', key: 'settings.errors.types' }],
  'invalid quiet_hours': { field: 'quiet_start', key: 'settings.errors.quietServer' },
  'invalid time_zone': { field: 'time_zone', key: 'settings.errors.timeZone' },
  'push is not configured': { key: 'settings.errors.pushNotConfigured' },
  'push endpoint not allowed': { key: 'settings.errors.pushEndpoint' },
  'invalid push keys': { key: 'settings.errors.pushKeys' },
  'subscription not found': { key: 'settings.errors.subscriptionNotFound' },
  'invalid subscription id': OUR_FAULT,
  'invalid token': { key: 'settings.unsubscribe.invalid' },
  // The texts inbox (docs/api/messaging.md › Texts › The inbox).
  'text not found': { key: 'texts.errors.notFound' },
  'invalid text id': OUR_FAULT,
  // Carers (docs/api/on-behalf.md › Carers).
  'cannot invite yourself': { key: 'carers.invite.errors.self' },
  'invalid can': { field: 'can', key: 'carers.invite.errors.can' },
  'invitation not found': { key: 'carers.errors.invitationNotFound' },
  'not allowed for this person': { key: 'carers.errors.notAllowed' },
  'on_behalf_of cannot be changed': { key: 'carers.errors.forWhomFixed' },
  'request body is too large': { key: 'errors.tooLarge' },
  'invalid request body': OUR_FAULT,
  'unsupported content type: send application/json': OUR_FAULT,
  'invalid request id': OUR_FAULT,
  'invalid response id': OUR_FAULT,
  'invalid user id': OUR_FAULT,
  'invalid user_id': OUR_FAULT,
  'invalid role_id': OUR_FAULT,
  'invalid check id': OUR_FAULT,
  'invalid up_to_id': OUR_FAULT,
  'invalid concern id': OUR_FAULT,
  'invalid invitation id': OUR_FAULT,
  'invalid for_user_id': OUR_FAULT,
  'invalid client_id': OUR_FAULT,
  // The app always names the person or the request a concern is about.
  'subject_user_id or request_id is required': OUR_FAULT,
  'min_lon, min_lat, max_lon, max_lat are required': OUR_FAULT,
  'invalid min_lon': OUR_FAULT,
  'invalid min_lat': OUR_FAULT,
  'invalid max_lon': OUR_FAULT,
  'invalid center_lat': OUR_FAULT,
  'invalid center_lon': OUR_FAULT,
  'center_lat and center_lon go together': OUR_FAULT,
  'invalid max_lat': OUR_FAULT,
  "action must be 'approve' or 'reject'": OUR_FAULT,
  'header x-vcs-csrf: 1 is required': OUR_FAULT,
  'cross-site request refused': OUR_FAULT,
  'malformed url': OUR_FAULT,
  'url path segment is too long': OUR_FAULT,
  'bad request': OUR_FAULT,
  'not found': OUR_FAULT,
}
