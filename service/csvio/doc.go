// Package csvio imports and exports chipdesk records as CSV: one file
// per table (owners, animals, chips, licences, vaccinations), a header
// row naming the columns in any order, dates as YYYY-MM-DD, money in
// integer cents, booleans as true/false.
//
// Import reads every row of every file and checks it (required fields,
// enumerations, dates, chip numbers through reader/chipid, references
// between the files and to records already stored, duplicates within
// the files) before storing anything. Any bad row makes Import return an
// *ImportError listing the bad rows by file, line and column, and store
// nothing; a clean set is stored in one transaction
// (service.BulkService.Import).
//
// Generate writes a synthetic data set of any size in the same format,
// for benchmarks and demonstrations.
//
// # References
//
//   - RFC 4180, Common Format and MIME Type for CSV Files.
//   - NASPHV Form 51 (the vaccination columns).
package csvio
