package acceptance

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// ids remembers a resource's ID between steps.
type ids struct{ last string }

// keep records the ID of addr.
func (i *ids) keep(addr string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		id, err := attrOf(s, addr, "id")
		i.last = id
		return err
	}
}

// same requires that addr kept its ID (an update in place), then records it.
func (i *ids) same(addr string) resource.TestCheckFunc {
	return i.compare(addr, true)
}

// changed requires that addr has a new ID (a replacement), then records it.
func (i *ids) changed(addr string) resource.TestCheckFunc {
	return i.compare(addr, false)
}

func (i *ids) compare(addr string, same bool) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		id, err := attrOf(s, addr, "id")
		if err != nil {
			return err
		}
		prev := i.last
		i.last = id
		switch {
		case same && id != prev:
			return fmt.Errorf("%s changed ID from %q to %q; want an update in place", addr, prev, id)
		case !same && id == prev:
			return fmt.Errorf("%s kept ID %q; want a replacement", addr, id)
		}
		return nil
	}
}

func expect(addr string, action plancheck.ResourceActionType) resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, action)}}
}

// The random resources and the sleep live only in state: destroy has
// nothing outside to check, and the framework fails the test if it fails.

func TestAccRandomPet(t *testing.T) {
	var id ids
	const addr = "plinth_random_pet.p"
	run(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config: `resource "plinth_random_pet" "p" {}`,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(addr, "length", "2"),
					resource.TestCheckResourceAttr(addr, "separator", "-"),
					resource.TestCheckResourceAttrPair(addr, "id", addr, "name"),
					resource.TestMatchResourceAttr(addr, "name", regexp.MustCompile(`^[a-z]+-[a-z]+$`)),
					id.keep(addr)),
			},
			{ResourceName: addr, ImportState: true, ImportStateVerify: true},
			{
				Config:           `resource "plinth_random_pet" "p" { length = 3 }`,
				ConfigPlanChecks: expect(addr, plancheck.ResourceActionReplace),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestMatchResourceAttr(addr, "name", regexp.MustCompile(`^[a-z]+-[a-z]+-[a-z]+$`)),
					id.changed(addr)),
			},
			{ResourceName: addr, ImportState: true, ImportStateVerify: true},
		},
	})
}

// Keepers built from another resource are unknown when planned.
func TestAccRandomPetKeepers(t *testing.T) {
	var id ids
	const addr = "plinth_random_pet.b"
	config := func(length int) string {
		return fmt.Sprintf(`
resource "plinth_random_pet" "a" { length = %d }
resource "plinth_random_pet" "b" {
  keepers = { a = plinth_random_pet.a.name }
}`, length)
	}
	run(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config: config(2),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttrPair(addr, "keepers.a", "plinth_random_pet.a", "name"),
					id.keep(addr)),
			},
			{
				Config:           config(3),
				ConfigPlanChecks: expect(addr, plancheck.ResourceActionReplace),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttrPair(addr, "keepers.a", "plinth_random_pet.a", "name"),
					id.changed(addr)),
			},
		},
	})
}

func TestAccRandomString(t *testing.T) {
	var id ids
	const addr = "plinth_random_string.s"
	run(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config: `resource "plinth_random_string" "s" { length = 12 }`,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestMatchResourceAttr(addr, "result", regexp.MustCompile(`^.{12}$`)),
					resource.TestCheckResourceAttrPair(addr, "id", addr, "result"),
					id.keep(addr)),
			},
			{ResourceName: addr, ImportState: true, ImportStateVerify: true},
			{
				Config:           `resource "plinth_random_string" "s" { length = 16 }`,
				ConfigPlanChecks: expect(addr, plancheck.ResourceActionReplace),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestMatchResourceAttr(addr, "result", regexp.MustCompile(`^.{16}$`)),
					id.changed(addr)),
			},
		},
	})
}

func TestAccRandomInteger(t *testing.T) {
	var id ids
	const addr = "plinth_random_integer.i"
	config := func(max int) string {
		return fmt.Sprintf(`resource "plinth_random_integer" "i" {
  min  = 1
  max  = %d
  seed = "acc"
}`, max)
	}
	importID := func(max int) resource.ImportStateIdFunc {
		return func(s *terraform.State) (string, error) {
			r, err := attrOf(s, addr, "result")
			return fmt.Sprintf("%s,1,%d,acc", r, max), err
		}
	}
	run(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				Config: config(100000),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttrPair(addr, "id", addr, "result"),
					id.keep(addr)),
			},
			{ResourceName: addr, ImportState: true, ImportStateVerify: true, ImportStateIdFunc: importID(100000)},
			{
				Config:           config(200000),
				ConfigPlanChecks: expect(addr, plancheck.ResourceActionReplace),
				Check:            id.changed(addr),
			},
			{ResourceName: addr, ImportState: true, ImportStateVerify: true, ImportStateIdFunc: importID(200000)},
		},
	})
}

func TestAccFile(t *testing.T) {
	var id ids
	const addr = "plinth_fs_file.f"
	dir := t.TempDir()
	config := func(name, content, mode string) string {
		return fmt.Sprintf(`resource "plinth_fs_file" "f" {
  path        = %q
  content     = %q
  permissions = %q
}`, filepath.Join(dir, name), content, mode)
	}
	fileIs := func(name, content string, mode os.FileMode) resource.TestCheckFunc {
		return func(*terraform.State) error {
			path := filepath.Join(dir, name)
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			info, err := os.Stat(path)
			if err != nil {
				return err
			}
			if string(b) != content || info.Mode().Perm() != mode {
				return fmt.Errorf("%s holds %q with mode %v, want %q with mode %v", path, b, info.Mode().Perm(), content, mode)
			}
			return nil
		}
	}
	run(t, resource.TestCase{
		CheckDestroy: func(*terraform.State) error {
			entries, err := os.ReadDir(dir)
			if err != nil || len(entries) > 0 {
				return fmt.Errorf("destroy left %v (%v) in %s", entries, err, dir)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: config("a.txt", "one\n", "0640"),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(addr, "size", "4"),
					resource.TestCheckResourceAttr(addr, "absolute_path", filepath.Join(dir, "a.txt")),
					fileIs("a.txt", "one\n", 0o640), id.keep(addr)),
			},
			{ResourceName: addr, ImportState: true, ImportStateVerify: true},
			{
				// A mode spelled without its leading zero: the next plan
				// (which the framework requires empty) keeps this spelling.
				Config:           config("a.txt", "two\n", "600"),
				ConfigPlanChecks: expect(addr, plancheck.ResourceActionUpdate),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(addr, "permissions", "600"),
					fileIs("a.txt", "two\n", 0o600), id.same(addr)),
			},
			{
				Config:           config("b.txt", "two\n", "600"),
				ConfigPlanChecks: expect(addr, plancheck.ResourceActionReplace),
				Check: resource.ComposeAggregateTestCheckFunc(
					fileIs("b.txt", "two\n", 0o600), id.changed(addr),
					func(*terraform.State) error {
						if _, err := os.Stat(filepath.Join(dir, "a.txt")); !errors.Is(err, os.ErrNotExist) {
							return fmt.Errorf("the replaced file a.txt is still there: %v", err)
						}
						return nil
					}),
			},
		},
	})
}

func TestAccSleep(t *testing.T) {
	var id ids
	const addr = "plinth_time_sleep.t"
	run(t, resource.TestCase{
		Steps: []resource.TestStep{
			{Config: `resource "plinth_time_sleep" "t" {}`, Check: id.keep(addr)},
			{ResourceName: addr, ImportState: true, ImportStateVerify: true},
			{
				Config:           `resource "plinth_time_sleep" "t" { create_duration = "1ms" }`,
				ConfigPlanChecks: expect(addr, plancheck.ResourceActionUpdate),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(addr, "create_duration", "1ms"), id.same(addr)),
			},
			{
				Config: `resource "plinth_random_pet" "a" {}
resource "plinth_time_sleep" "t" {
  create_duration = "1ms"
  triggers        = { a = plinth_random_pet.a.name }
}`,
				ConfigPlanChecks: expect(addr, plancheck.ResourceActionReplace),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttrPair(addr, "triggers.a", "plinth_random_pet.a", "name"), id.changed(addr)),
			},
		},
	})
}

func TestAccCommand(t *testing.T) {
	var id ids
	const addr = "plinth_exec_command.c"
	dir := t.TempDir()
	marker := filepath.Join(dir, "deleted")
	config := func(create, trigger string) string {
		return fmt.Sprintf(`resource "plinth_random_pet" "a" {}
resource "plinth_exec_command" "c" {
  create   = %q
  delete   = %q
  triggers = [plinth_random_pet.a.name, %q]
}`, create, "echo gone >> "+marker, trigger)
	}
	deletes := func(n int) resource.TestCheckFunc {
		return func(*terraform.State) error {
			b, _ := os.ReadFile(marker)
			if got := strings.Count(string(b), "gone"); got != n {
				return fmt.Errorf("the delete command ran %d times, want %d", got, n)
			}
			return nil
		}
	}
	run(t, resource.TestCase{
		CheckDestroy: func(s *terraform.State) error {
			defer os.Remove(marker) // the next protocol starts afresh
			return deletes(2)(s)
		},
		Steps: []resource.TestStep{
			{
				Config: config("echo one", "x"),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(addr, "stdout", "one"),
					resource.TestCheckResourceAttrPair(addr, "triggers.0", "plinth_random_pet.a", "name"), id.keep(addr)),
			},
			{ResourceName: addr, ImportState: true, ExpectError: regexp.MustCompile(`cannot be imported`)},
			{
				Config:           config("echo two", "x"),
				ConfigPlanChecks: expect(addr, plancheck.ResourceActionUpdate),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(addr, "stdout", "two"), id.same(addr), deletes(0)),
			},
			{
				Config:           config("echo two", "y"),
				ConfigPlanChecks: expect(addr, plancheck.ResourceActionReplace),
				Check:            resource.ComposeAggregateTestCheckFunc(id.changed(addr), deletes(1)),
			},
		},
	})
}
