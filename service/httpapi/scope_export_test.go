package httpapi

// ClinicRefused is clinicRefused, for the role-matrix tests.
var ClinicRefused = clinicRefused
