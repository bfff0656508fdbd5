package service

import "context"

// Store is everything a storage backend provides. store/sqlite and
// store/postgres implement it; store/storetest is the contract both pass.
type Store interface {
	OwnerService
	AnimalService
	LicenceService
	HealthService
	DangerousService
	ImpoundService
	RecordService
	ScanService
	AuditService
	TokenService
	JobService
	BulkService
	DeviceEventService
	TagBatchService
	IdempotencyService
	MoneyService
	PermitService // permit.go
	SearchService // search.go
	ChangeFeed    // changefeed.go

	// Ping checks the backend is reachable.
	Ping(ctx context.Context) error
	// Close releases the backend.
	Close() error
}
