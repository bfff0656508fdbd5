package offline

import (
	"context"
	"errors"
	"slices"
	"testing"
)

// TestAhead: what produce emits reaches consume in order, and the first
// error of either side ends both and is the one returned.
func TestAhead(t *testing.T) {
	t.Parallel()
	errProduce, errConsume := errors.New("produce failed"), errors.New("consume failed")
	for _, tt := range []struct {
		name                string
		failProduce, failAt int // after this many emitted, -1 never
		failConsume         int // at this value, -1 never
		want                []int
		wantErr             error
	}{
		{"all through", -1, -1, -1, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, nil},
		{"produce fails", 1, 4, -1, []int{0, 1, 2, 3}, errProduce},
		{"consume fails", -1, -1, 3, []int{0, 1, 2}, errConsume},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []int
			err := ahead(context.Background(), 2, func(ctx context.Context, emit func(int) error) error {
				for i := range 1000 {
					if tt.failProduce > 0 && i == tt.failAt {
						return errProduce
					}
					if tt.failProduce < 0 && tt.failConsume < 0 && i == 10 {
						return nil
					}
					if err := emit(i); err != nil {
						if !errors.Is(err, context.Canceled) {
							t.Errorf("emit after consume failed = %v, want context.Canceled", err)
						}
						return err
					}
				}
				return nil
			}, func(v int) error {
				if v == tt.failConsume {
					return errConsume
				}
				got = append(got, v)
				return nil
			})
			if !errors.Is(err, tt.wantErr) || err != nil && tt.wantErr == nil {
				t.Errorf("ahead = %v, want %v", err, tt.wantErr)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("consumed %v, want %v", got, tt.want)
			}
		})
	}
}
