package postgres

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/plinth-iac/plinth/internal/state"
)

// Rows a plinth before schema version 3 wrote are keyed by stack name
// alone; the migration gives them the project '' (unclaimed). A stack's
// project is then read from its state: every resource's URN is
// urn:pulumi:STACK::PROJECT::TYPE::NAME. adopt gives an unclaimed stack
// to the one project its current state names; a stack whose state names
// none (it records no resources) or several is left unclaimed, refused to
// every project with an *UnclaimedError, until someone runs `plinth state
// claim` in its project's directory. No project ever takes over another's
// stack by opening it.

// urnProject finds the project of each resource in a snapshot or journal
// record (the "urn" key of a resource's JSON).
var urnProject = regexp.MustCompile(`"urn":\s*"urn:pulumi:[^":]*::([^":]+)::`)

// stackTables are the tables keyed by project and stack, the name of
// each one's stack column, and the schema version that made it.
var stackTables = []struct {
	table, column string
	since         int
}{
	{"plinth_journal", "stack", 1}, {"plinth_snapshots", "stack", 1}, {"plinth_secrets", "stack", 1},
	{"plinth_locks", "stack", 1}, {"plinth_history", "stack", 2}, {"plinth_stacks", "name", 1},
	{"plinth_marks", "stack", marksVersion},
}

// adopt gives each unclaimed stack to the project its state names, if it
// names exactly one and that project has no stack of the name already.
// The schema is at version.
func adopt(ctx context.Context, tx pgx.Tx, version int) error {
	rows, err := tx.Query(ctx, "SELECT name FROM plinth_stacks WHERE project = ''")
	if err != nil {
		return err
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return err
	}
	for _, name := range names {
		if err := adoptOne(ctx, tx, name, version); err != nil {
			return err
		}
	}
	return nil
}

// adoptOne gives the unclaimed stack to the project its state names, if
// it names one and that project has no stack of the name already.
func adoptOne(ctx context.Context, tx pgx.Tx, stack string, version int) error {
	named, err := projectsOf(ctx, tx, stack)
	if err != nil || len(named) != 1 {
		return err
	}
	if taken, err := hasStack(ctx, tx, named[0], stack); err != nil || taken {
		return err
	}
	return moveRows(ctx, tx, named[0], stack, version)
}

// projectsOf returns the projects the URNs in an unclaimed stack's
// snapshot and journal name, sorted. The backup snapshot is left out: it
// is the state before the last operation, not what the stack holds.
func projectsOf(ctx context.Context, tx pgx.Tx, stack string) ([]string, error) {
	rows, err := tx.Query(ctx, `SELECT data FROM plinth_snapshots WHERE project = '' AND stack = $1
		UNION ALL SELECT data FROM plinth_journal WHERE project = '' AND stack = $1`, stack)
	if err != nil {
		return nil, err
	}
	blobs, err := pgx.CollectRows(rows, pgx.RowTo[[]byte])
	if err != nil {
		return nil, err
	}
	var named []string
	for _, b := range blobs {
		for _, m := range urnProject.FindAllSubmatch(b, -1) {
			if p := string(m[1]); !slices.Contains(named, p) {
				named = append(named, p)
			}
		}
	}
	slices.Sort(named)
	return named, nil
}

func hasStack(ctx context.Context, tx pgx.Tx, project, stack string) (bool, error) {
	var found bool
	err := tx.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM plinth_stacks WHERE project = $1 AND name = $2)", project, stack).Scan(&found)
	return found, err
}

// moveRows gives the unclaimed rows of stack to project, in the tables
// of schema version.
func moveRows(ctx context.Context, tx pgx.Tx, project, stack string, version int) error {
	for _, t := range stackTables {
		if t.since > version {
			continue
		}
		q := fmt.Sprintf("UPDATE %s SET project = $1 WHERE project = '' AND %s = $2", t.table, t.column)
		if _, err := tx.Exec(ctx, q, project, stack); err != nil {
			return err
		}
	}
	return nil
}

// loadUnclaimed reads the names of the unclaimed stacks the backend's
// project has no stack of its own by: every use of them is refused.
func (b *Backend) loadUnclaimed(ctx context.Context) error {
	rows, err := b.pool.Query(ctx, `SELECT name FROM plinth_stacks u WHERE project = ''
		AND NOT EXISTS (SELECT 1 FROM plinth_stacks o WHERE o.project = $1 AND o.name = u.name)`, b.project)
	if err != nil {
		return err
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, n := range names {
		b.unclaimed[n] = true
	}
	return nil
}

// check validates the stack's name and refuses a stack no project has
// claimed.
func (b *Backend) check(ctx context.Context, stack string) error {
	if err := state.ValidateStackName(stack); err != nil {
		return err
	}
	b.mu.Lock()
	unclaimed := b.unclaimed[stack]
	b.mu.Unlock()
	if !unclaimed {
		return nil
	}
	e := &UnclaimedError{Stack: stack, Project: b.project, Where: b.shown}
	_ = pgx.BeginFunc(ctx, b.pool, func(tx pgx.Tx) (err error) {
		e.Named, err = projectsOf(ctx, tx, stack)
		return err
	})
	return e
}

// ErrUnclaimed is matched by an *UnclaimedError.
var ErrUnclaimed = errors.New("the stack belongs to no project")

// UnclaimedError is the error of every use of a stack an older plinth
// wrote, keyed by its name alone, whose state does not tell plinth which
// project it belongs to: plinth neither reads nor writes it until it is
// claimed, so that no project takes over another's stack.
type UnclaimedError struct {
	Stack, Project string
	// Where is the database, its password redacted.
	Where string
	// Named are the projects the stack's resources name, sorted: none
	// if it records no resources.
	Named []string
}

func (e *UnclaimedError) Unwrap() error { return ErrUnclaimed }

func (e *UnclaimedError) Error() string {
	head := fmt.Sprintf("stack %s in %s was written by a plinth that kept stacks by name alone, before each project had stacks of its own; ", e.Stack, e.Where)
	switch {
	case len(e.Named) == 0:
		return head + fmt.Sprintf("it records no resources, whose URNs would say which project it belongs to, so plinth leaves it alone rather than guess. "+
			"If it is project %s's stack, run `plinth state claim --stack %s` in this project's directory; if it is another project's, run it in that project's directory",
			e.Project, e.Stack)
	case len(e.Named) == 1:
		return head + fmt.Sprintf("its resources are project %s's, which has a stack %s of its own as well, so plinth cannot give it the old one. "+
			"Compare the two, and remove the one no one needs (to reach the old one, claim it for a project of no other use with `plinth state claim --force --stack %s`)",
			e.Named[0], e.Stack, e.Stack)
	}
	return head + fmt.Sprintf("its resources name projects %s: they shared it. Run `plinth state claim --force --stack %s` in the directory of the project that should keep it; "+
		"that project's next preview shows the other projects' resources as deletions, so remove those from its state first with `plinth state rm URN` if they should stay",
		strings.Join(e.Named, " and "), e.Stack)
}

// Claim gives the unclaimed stack to the backend's project. It refuses
// a stack whose resources name another project unless force is set, and
// refuses if the project has a stack of the name already.
func (b *Backend) Claim(ctx context.Context, stack string, force bool) error {
	if err := state.ValidateStackName(stack); err != nil {
		return err
	}
	err := pgx.BeginFunc(ctx, b.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", int64(migrateLock)); err != nil {
			return err
		}
		if err := b.claimable(ctx, tx, stack, force); err != nil {
			return err
		}
		return moveRows(ctx, tx, b.project, stack, SchemaVersion)
	})
	if err != nil {
		return b.fail("claiming", stack, err)
	}
	b.mu.Lock()
	delete(b.unclaimed, stack)
	b.mu.Unlock()
	return nil
}

// claimable says why the stack cannot be claimed, if it cannot.
func (b *Backend) claimable(ctx context.Context, tx pgx.Tx, stack string, force bool) error {
	if mine, err := hasStack(ctx, tx, b.project, stack); err != nil || mine {
		if err == nil {
			err = fmt.Errorf("project %s has a stack %s already; an unclaimed one of the name, if there is one, is left as it is", b.project, stack)
		}
		return err
	}
	if found, err := hasStack(ctx, tx, "", stack); err != nil || !found {
		if err == nil {
			err = fmt.Errorf("there is no unclaimed stack %s: nothing to claim", stack)
		}
		return err
	}
	named, err := projectsOf(ctx, tx, stack)
	if err != nil || force {
		return err
	}
	for _, p := range named {
		if p != b.project {
			return &UnclaimedError{Stack: stack, Project: b.project, Where: b.shown, Named: named}
		}
	}
	return nil
}

// Diagnostic gives the error a summary for people (the display's
// interface).
func (e *UnclaimedError) Diagnostic() (summary, where, path, detail string) {
	return "Stack belongs to no project", "", "", e.Error() + "."
}
