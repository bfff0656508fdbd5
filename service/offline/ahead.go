package offline

import "context"

// ahead runs produce in a goroutine of its own and hands what it emits
// to consume in the caller's, through a buffer of n, so that the two run
// side by side: a pull's reading and its writing each take a core. The
// first error of either ends both and is returned; produce sees the end
// of its ctx (and emit fails) once consume has failed.
func ahead[T any](ctx context.Context, n int, produce func(ctx context.Context, emit func(T) error) error, consume func(T) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ch := make(chan T, n)
	perr := make(chan error, 1)
	go func() {
		defer close(ch)
		perr <- produce(ctx, func(v T) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			select {
			case ch <- v:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
	}()
	for v := range ch {
		if err := consume(v); err != nil {
			cancel()
			for range ch {
				// Drained until produce returns.
			}
			<-perr
			return err
		}
	}
	return <-perr
}
