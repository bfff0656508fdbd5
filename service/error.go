package service

import (
	"errors"
	"fmt"
	"net/http"
)

// Application error codes. The HTTP layer maps each to a status code.
const (
	ECONFLICT     = "conflict"     // the action conflicts with the current state (duplicate chip, tag in use)
	EINTERNAL     = "internal"     // a fault the caller cannot fix; details are logged, never shown
	EINVALID      = "invalid"      // the request is malformed or breaks a validation rule
	ENOTFOUND     = "not_found"    // no such entity
	EUNAUTHORIZED = "unauthorized" // no or bad credentials
	EFORBIDDEN    = "forbidden"    // credentials good, role not allowed
	EAMBIGUOUS    = "ambiguous"    // the text names more than one thing; the caller chooses (a chip number with two readings)
)

// Error is an application error: a code from the list above, a message
// meant for the end user and, when one field of the request is at fault,
// its name as the request spells it ("end", "issued_on").
type Error struct {
	Code    string
	Message string
	Field   string
}

// Error implements the error interface.
func (e *Error) Error() string {
	return fmt.Sprintf("service: code=%s message=%s", e.Code, e.Message)
}

// Errorf returns an *Error with code and a formatted message.
func Errorf(code string, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// FieldErrorf returns an *Error with code, the field at fault and a
// formatted message.
func FieldErrorf(code, field string, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Field: field}
}

// Conflictf is an ECONFLICT error: the action conflicts with the state
// of a record (a licence already in force, an animal already held).
func Conflictf(format string, args ...any) *Error { return Errorf(ECONFLICT, format, args...) }

// Invalidf is an EINVALID error naming the field at fault.
func Invalidf(field, format string, args ...any) *Error {
	return FieldErrorf(EINVALID, field, format, args...)
}

// ErrorField returns the field of the first *Error in err's chain, ""
// when there is none or it names no field.
func ErrorField(err error) string {
	if e := asError(err); e != nil {
		return e.Field
	}
	return ""
}

// asError returns the first *Error in err's chain, nil when there is
// none. A nil err or an *Error itself costs no allocation: every
// successful lookup asks ErrorCode(nil).
func asError(err error) *Error {
	if err == nil {
		return nil
	}
	if e, ok := err.(*Error); ok {
		return e
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}

// ErrorCode returns the code of the first *Error in err's chain, "" for a
// nil err, and EINTERNAL for any other error.
func ErrorCode(err error) string {
	if err == nil {
		return ""
	} else if e := asError(err); e != nil {
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the message of the first *Error in err's chain, ""
// for a nil err, and "Internal error." for any other error, so internal
// details never reach a client.
func ErrorMessage(err error) string {
	if err == nil {
		return ""
	} else if e := asError(err); e != nil {
		return e.Message
	}
	return "Internal error."
}

// HTTPStatus is the status every web door answers for an error code:
// invalid 400, unauthorized 401, forbidden 403, not found 404, conflict
// 409, ambiguous 422, anything else 500.
func HTTPStatus(code string) int {
	switch code {
	case EINVALID:
		return http.StatusBadRequest
	case EAMBIGUOUS:
		return http.StatusUnprocessableEntity
	case EUNAUTHORIZED:
		return http.StatusUnauthorized
	case EFORBIDDEN:
		return http.StatusForbidden
	case ENOTFOUND:
		return http.StatusNotFound
	case ECONFLICT:
		return http.StatusConflict
	}
	return http.StatusInternalServerError
}
