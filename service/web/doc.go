// Package web serves chipdesk's pages for the people at the desk: the
// intake desk, the animal control officer, the clinic counter and the
// administrator. Pages are rendered on the server with html/template;
// the one stylesheet and the one small script are embedded, so the pages
// need no build step and load nothing from another site (the
// Content-Security-Policy allows only this server).
//
//   - Intake desk (/intake): the live scan panel, fed by Server-Sent
//     Events from the scan hub (service/events) and rendered on the
//     server, with the animal, owner contact, licence and rabies status
//     and a red banner with the handling restrictions of a dangerous
//     animal or a quarantine; one action starts an impoundment (notice
//     date, hold-until and redemption fees from service/custody); search by
//     chip, tag, owner or address.
//   - In custody (/custody), one stay (/custody/{id}: notice, redemption,
//     the ends allowed after the hold), Today (/today, following the scan
//     stream), the register (/animals/new, /animals/{id}/edit, /owners):
//     custody.go and registry.go.
//   - Search (/search): lookup.Search reads a phone, a name, a pet, an
//     address, a chip or part of one, a tag of several cities.
//   - Officer (/officer): lookup by typing or scanning (a keyboard-wedge
//     reader types into the focused box), bite records that start the
//     rules' quarantine, the dangerous-dog compliance view.
//   - Clinic counter (/clinic): licence issue and renewal with the rabies
//     certificate, the tag preview, print and engrave jobs
//     (service/jobs), duplicate tags for lost or stolen ones.
//   - Admin (/admin): the tag designs with previews and approval, tokens,
//     readers and printers with their live state.
//
// Nothing of the law is computed here: the pages parse a form, call the
// application layer (service/licensing, service/custody,
// service/incidents, service/lookup) and render its answer or its
// typed error; fees, dates, holds, quarantines and deadlines come from
// there, and jurisdictions are shown by name ("Minneapolis").
//
// # Forms
//
// Every POST answers 303 See Other (or a 4xx error page): form.go keeps
// the next page's notice, and a refused form with what was typed and its
// error, in the session (post/redirect/get); nothing travels in the
// address. A scan never replaces a live panel a person is using (app.js).
//
// # Signing in
//
// A person signs in with an API token (service.Token); its name, role
// and site become the session's. Sessions are kept on the server with a
// random 256-bit id in an HttpOnly, SameSite=Strict cookie (Secure over
// TLS or with Opts.SecureCookies) and expire on the server. Every form
// that changes something carries the session's synchroniser token, and
// its Origin must be this site. Each page names the roles that may use
// it; admin may use all.
//
// # References
//
//   - WHATWG HTML Living Standard, 9.2 Server-sent events.
//   - OWASP Cross-Site Request Forgery Prevention Cheat Sheet
//     (synchroniser token pattern); RFC 6265bis (SameSite cookies).
//   - W3C WCAG 2.2: 2.1.1 Keyboard, 2.4.7 Focus Visible, 2.5.8 Target
//     Size, 3.3.2 Labels or Instructions, 4.1.3 Status Messages.
//   - Minn. Stat. 346.47 subd. 2, 347.50–347.52; Minneapolis Code of
//     Ordinances 62.40, 64.30, 64.40, 64.110, 66.40; Chanhassen City Code
//     5-39, 5-51, 5-73, 5-77, 5-78 (applied by the application layer).
package web
