//! The grasp planner on GraspIt's model library: the Barrett and the Schunk hand, each on five
//! objects (the mug, the flask, the glass, the phone, the book) alone, as GraspIt's planner
//! worlds hold them, with the default settings: at least five distinct force-closure grasps
//! each, none leaving the hand in the object; standing on a table, no grasp leaves the hand in
//! the object or the table; and the same seed gives the same grasps.

use std::path::Path;

use clasp_collide::shapes;
use clasp_core::{
    Body, BodyId, BodyKind, Element, GraspPlan, GraspTrial, PlanEnergy, PlanProgress, PlanSettings,
    Pose, RobotId, World,
};
use clasp_io::{Disk, load_body, load_robot};
use nalgebra::{Translation3, UnitQuaternion, Vector3};

/// The object alone, or standing on a 20 mm slab (an obstacle), and the hand far above.
fn scene(models: &Path, hand: &str, object: &str, on_table: bool) -> World {
    let body = load_body(
        &Disk,
        &models.join(format!("objects/{object}.xml")),
        BodyKind::Graspable,
    )
    .unwrap();
    let (lo, _) = body.mesh().bounding_box();
    let table = Body::from_mesh(
        "table",
        BodyKind::Obstacle,
        shapes::cuboid([-400.0, -400.0, -20.0], [400.0, 400.0, 0.0]),
    )
    .at(Pose::translation(0.0, 0.0, lo.z - 0.5));
    let hand = load_robot(&Disk, &models.join("robots").join(hand)).unwrap();
    let bodies = if on_table {
        vec![body, table]
    } else {
        vec![body]
    };
    let mut world = World::new(bodies, vec![hand]);
    world
        .set_pose(
            Element::Robot(RobotId::from_index(0)),
            Pose::translation(0.0, 0.0, 2000.0),
        )
        .unwrap();
    world
}

fn plan(world: &World, settings: &PlanSettings) -> GraspPlan {
    world
        .plan(
            RobotId::from_index(0),
            BodyId::Free(0),
            settings,
            &PlanProgress::default(),
        )
        .unwrap()
}

/// Puts the hand where a planned grasp left it and asks the brute-force engine whether any
/// pair the rules check interpenetrates: the hand in the object, the table or itself.
fn assert_clear(world: &World, grasp: &GraspTrial, what: &str) {
    let mut placed = world.clone();
    placed.put_grasp(RobotId::from_index(0), grasp).unwrap();
    let overlaps = clasp_io::fixtures::interpenetrating(&placed);
    assert!(
        overlaps.is_empty(),
        "{what}: interpenetrating: {overlaps:?}"
    );
}

/// Plans with the default settings and checks every grasp found: distinct, and the hand in
/// nothing. Returns how many are force-closure.
fn plan_and_check(world: &World, what: &str) -> usize {
    let found = plan(world, &PlanSettings::default());
    let closures = found.grasps.iter().filter(|g| g.force_closure()).count();
    println!(
        "{what}: {} grasps, {closures} force-closure, best epsilon {:.3}, {} steps, {} states in {:.2} s",
        found.grasps.len(),
        found.grasps.first().map_or(-1.0, |g| g.epsilon()),
        found.steps,
        found.evaluations,
        found.seconds
    );
    for (k, g) in found.grasps.iter().enumerate() {
        assert_clear(world, &g.grasp, &format!("{what}, grasp {k}"));
        for other in &found.grasps[k + 1..] {
            assert_ne!(g.grasp.palm, other.grasp.palm, "{what}: two grasps alike");
        }
    }
    closures
}

#[test]
fn the_planner_finds_five_distinct_force_closure_grasps_of_five_objects_for_two_hands() {
    let Some(models) = clasp_io::fixtures::graspit_models() else {
        return;
    };
    for hand in ["Barrett/Barrett.xml", "Schunk/Schunk.xml"] {
        for object in ["mug", "flask", "glass", "phone", "book"] {
            let world = scene(&models, hand, object, false);
            let what = format!("{hand} on the {object}");
            let closures = plan_and_check(&world, &what);
            assert!(closures >= 5, "{what}: {closures} force-closure grasps");
        }
    }
}

#[test]
fn planned_grasps_of_objects_on_a_table_leave_the_hand_in_neither() {
    let Some(models) = clasp_io::fixtures::graspit_models() else {
        return;
    };
    for hand in ["Barrett/Barrett.xml", "Schunk/Schunk.xml"] {
        for object in ["mug", "glass", "book"] {
            let world = scene(&models, hand, object, true);
            let closures = plan_and_check(&world, &format!("{hand} on the {object} on a table"));
            assert!(
                closures >= 1,
                "{hand} on the {object} on a table: no force-closure grasp"
            );
        }
    }
}

/// The default energy sees the scene: alone, its searches take GraspIt's contact energy and
/// contact-quality in turn; with a table under the object (within the hand's length), all
/// take contact-quality, whose opposition term finds the grasps a table leaves.
#[test]
fn the_mixed_energy_takes_contact_quality_where_a_table_lies_by_the_object() {
    let Some(models) = clasp_io::fixtures::graspit_models() else {
        return;
    };
    let settings = PlanSettings {
        steps: 100,
        grasps: 1,
        ..PlanSettings::default()
    };
    let (contact, both) = (PlanEnergy::Contact, PlanEnergy::ContactQuality);
    let alone = plan(
        &scene(&models, "Barrett/Barrett.xml", "mug", false),
        &settings,
    );
    assert_eq!(alone.search_energies, [contact, both, contact, both]);
    let on_table = plan(
        &scene(&models, "Barrett/Barrett.xml", "mug", true),
        &settings,
    );
    assert_eq!(on_table.search_energies, [both; 4]);
}

/// A plan short of its grasps once every kept state is closed refines its first states with
/// child searches that close the hand (GraspIt's guided planner's way), and the grasps they
/// find count: the Barrett on GraspIt's flask standing on a table, where the virtual
/// contacts lead the searches to the flask's cone-shaped side (docs/benchmarks.md).
#[test]
fn a_plan_short_of_its_grasps_refines_its_first_states_by_closing_the_hand() {
    let Some(models) = clasp_io::fixtures::graspit_models() else {
        return;
    };
    let world = scene(&models, "Barrett/Barrett.xml", "flask", true);
    let found = plan(&world, &PlanSettings::default());
    let closures = found.grasps.iter().filter(|g| g.force_closure()).count();
    println!(
        "flask on a table: {closures} force-closure of {}, {} closed, {} states refined",
        found.grasps.len(),
        found.closed,
        found.refined
    );
    assert_eq!(found.refined, 5, "the plan was not short");
    assert!(closures >= 5, "{closures} force-closure grasps");
    for (k, g) in found.grasps.iter().enumerate() {
        assert_clear(&world, &g.grasp, &format!("flask on a table, grasp {k}"));
    }
    // Asked for the guided planner itself, a plan refines nothing more.
    let guided = PlanSettings {
        steps: 500,
        guided: Some(clasp_core::GuidedPlanning {
            children: 2,
            child_steps: 20,
        }),
        ..PlanSettings::default()
    };
    assert_eq!(plan(&world, &guided).refined, 0);
}

/// GraspIt's other energy, potential quality: states are scored by the epsilon their virtual
/// contacts would make, so the best states already promise force closure before closing
/// (negative energies), and the closed grasps are force-closure and clear.
#[test]
fn the_potential_quality_energy_plans_force_closure_grasps() {
    let Some(models) = clasp_io::fixtures::graspit_models() else {
        return;
    };
    let world = scene(&models, "Barrett/Barrett.xml", "mug", false);
    let settings = PlanSettings {
        steps: 2_000,
        energy: clasp_core::PlanEnergy::Quality,
        ..PlanSettings::default()
    };
    let found = plan(&world, &settings);
    let promising = found.grasps.iter().filter(|g| g.energy < 0.0).count();
    assert!(promising >= 5, "{promising} states promise force closure");
    let closures = found.grasps.iter().filter(|g| g.force_closure()).count();
    assert!(closures >= 5, "{closures} force-closure grasps");
    for (k, g) in found.grasps.iter().enumerate() {
        assert_clear(&world, &g.grasp, &format!("potential quality, grasp {k}"));
    }
}

#[test]
fn a_plan_says_where_its_searches_spent_their_time() {
    let Some(models) = clasp_io::fixtures::graspit_models() else {
        return;
    };
    let world = scene(&models, "Barrett/Barrett.xml", "mug", false);
    for energy in [PlanEnergy::Contact, PlanEnergy::ContactQuality] {
        let settings = PlanSettings {
            steps: 300,
            grasps: 1,
            energy,
            ..PlanSettings::default()
        };
        let found = plan(&world, &settings);
        let shares = found.shares;
        println!("{energy:?}: {shares:?} in {:.3} s", found.search_seconds);
        for (name, seconds) in shares.named() {
            assert!(seconds >= 0.0, "{energy:?}: {name} {seconds}");
        }
        assert!(shares.placement > 0.0 && shares.collision > 0.0 && shares.distances > 0.0);
        // Only the energies with a quality term spend time on it.
        assert_eq!(shares.quality > 0.0, energy == PlanEnergy::ContactQuality);
        // The searches' time, summed: no more than every thread busy the whole search.
        let threads = rayon::current_num_threads() as f64;
        assert!(
            shares.total() <= threads * found.search_seconds * 1.01 + 1e-3,
            "{energy:?}: {} s in shares, {} s of search on {threads} threads",
            shares.total(),
            found.search_seconds
        );
    }
}

#[test]
fn the_same_seed_gives_the_same_grasps() {
    let Some(models) = clasp_io::fixtures::graspit_models() else {
        return;
    };
    let world = scene(&models, "Barrett/Barrett.xml", "mug", false);
    let settings = PlanSettings {
        steps: 3_000,
        seed: 11,
        ..PlanSettings::default()
    };
    let (a, b) = (plan(&world, &settings), plan(&world, &settings));
    assert_eq!(a.grasps, b.grasps);
    assert_eq!((a.steps, a.evaluations), (b.steps, b.evaluations));
    let other = plan(
        &world,
        &PlanSettings {
            seed: 12,
            ..settings
        },
    );
    assert_ne!(a.grasps, other.grasps);
    // One thread or two: the same grasps.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    assert_eq!(pool.install(|| plan(&world, &settings)).grasps, a.grasps);
}

#[test]
fn planning_stops_when_asked_and_keeps_what_it_found() {
    let Some(models) = clasp_io::fixtures::graspit_models() else {
        return;
    };
    let world = scene(&models, "Barrett/Barrett.xml", "mug", false);
    let progress = PlanProgress::default();
    progress
        .stop
        .store(true, std::sync::atomic::Ordering::Relaxed);
    let stopped = world
        .plan(
            RobotId::from_index(0),
            BodyId::Free(0),
            &PlanSettings::default(),
            &progress,
        )
        .unwrap();
    assert_eq!(stopped.steps, 0);
    assert!(stopped.grasps.is_empty());
    // ClaspHand has no virtual contacts: planning with it is refused, saying why.
    let mut without = world.clone();
    let clasp_hand =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/robots/ClaspHand/ClaspHand.xml");
    let r = without.add_robot(load_robot(&Disk, &clasp_hand).unwrap());
    let refused = without.plan(
        r,
        BodyId::Free(0),
        &PlanSettings::default(),
        &PlanProgress::default(),
    );
    assert!(
        refused
            .unwrap_err()
            .to_string()
            .contains("no virtual contacts")
    );
}

/// A planned grasp put in place saves as a GraspIt world (pose, DOFs and the breakaway states
/// of GraspIt's DOF stream) that loads with the hand where it was.
#[test]
fn a_planned_grasp_saves_and_loads_where_it_was() {
    let Some(models) = clasp_io::fixtures::graspit_models() else {
        return;
    };
    let world = scene(&models, "Barrett/Barrett.xml", "mug", false);
    let settings = PlanSettings {
        steps: 2_000,
        ..PlanSettings::default()
    };
    let found = plan(&world, &settings);
    let grasp = &found.grasps[0].grasp;
    let mut placed = world.clone();
    placed.put_grasp(RobotId::from_index(0), grasp).unwrap();
    let dir = std::env::temp_dir().join(format!("clasp-planned-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("planned.xml");
    clasp_io::save_world(&placed, &file, Some(&models)).unwrap();
    let loaded = clasp_io::load_world(&Disk, &file, Some(&models)).unwrap();
    let (a, b) = (
        placed.robot(RobotId::from_index(0)).unwrap(),
        loaded.robot(RobotId::from_index(0)).unwrap(),
    );
    for (x, y) in a.bodies().zip(b.bodies()) {
        let gap = (x.pose().translation.vector - y.pose().translation.vector).norm();
        assert!(gap < 1e-6, "{} moved {gap} mm", x.name);
    }
    assert_eq!(a.breakaway_states(), b.breakaway_states());
    assert_eq!(placed.contacts().len(), loaded.contacts().len());
    std::fs::remove_dir_all(dir).unwrap();
}

/// The planner asks the world's one rule what the hand may not touch. The glass inside a
/// solid box 10 mm larger all round: with the box's collisions with the hand on, no state
/// brings the hand to the glass and no grasp holds it; switched off (Toggle Collision on the
/// pair), the planner grasps the glass as if the box were not there.
#[test]
fn the_planner_obeys_the_worlds_collision_switches() {
    let Some(models) = clasp_io::fixtures::graspit_models() else {
        return;
    };
    let mut world = scene(&models, "Barrett/Barrett.xml", "glass", false);
    let (lo, hi) = world.free_body(0).unwrap().mesh().bounding_box();
    let margin = nalgebra::Vector3::repeat(10.0);
    let (lo, hi) = (lo - margin, hi + margin);
    let cover = shapes::cuboid([lo.x, lo.y, lo.z], [hi.x, hi.y, hi.z]);
    world.add_body(Body::from_mesh("cover", BodyKind::Obstacle, cover));
    let settings = PlanSettings::default();
    let closures = |plan: &GraspPlan| plan.grasps.iter().filter(|g| g.force_closure()).count();
    let covered = plan(&world, &settings);
    assert_eq!(
        closures(&covered),
        0,
        "a grasp through a box the hand may not enter"
    );
    assert!(!world.toggle_collisions(&[Element::Robot(RobotId::from_index(0)), Element::Body(1)]));
    let uncovered = plan(&world, &settings);
    println!(
        "force-closure grasps: {} with the cover on, {} switched off",
        closures(&covered),
        closures(&uncovered)
    );
    assert!(closures(&uncovered) >= 5);
}

/// Issue 29's acceptance: the planner's best force-closure grasp of GraspIt's mug by the
/// Barrett holds in the physics test (gravity along each axis direction in turn).
#[test]
fn the_barretts_best_force_closure_grasp_of_the_mug_holds_in_all_six_directions() {
    let Some(models) = clasp_io::fixtures::graspit_models() else {
        return;
    };
    let world = scene(&models, "Barrett/Barrett.xml", "mug", false);
    let found = plan(&world, &PlanSettings::default());
    let best = found
        .grasps
        .iter()
        .find(|g| g.force_closure())
        .expect("a force-closure grasp");
    let mut grasped = world.clone();
    grasped
        .put_grasp(RobotId::from_index(0), &best.grasp)
        .unwrap();
    let test = grasped
        .test_grasp(
            RobotId::from_index(0),
            BodyId::Free(0),
            &clasp_core::HoldSettings::default(),
        )
        .unwrap();
    for d in &test.directions {
        println!(
            "pulled {:?}: moved {:.2} mm, turned {:.2}°",
            d.gravity.normalize().as_slice(),
            d.displacement,
            d.rotation.to_degrees()
        );
    }
    assert!(test.held, "{test:?}");
    // The same palm with the hand open (each closing DOF at its opening limit, the spread
    // kept) drops the mug.
    let hand = grasped.robot(RobotId::from_index(0)).unwrap();
    let open_dofs: Vec<f64> = (0..hand.dofs.len())
        .map(|d| match hand.dofs[d].default_velocity {
            v if v > 0.0 => hand.dof_limits(d).0,
            v if v < 0.0 => hand.dof_limits(d).1,
            _ => hand.dof_values()[d],
        })
        .collect();
    grasped
        .set_posture(RobotId::from_index(0), &open_dofs, &[])
        .unwrap();
    let open = grasped
        .test_grasp(
            RobotId::from_index(0),
            BodyId::Free(0),
            &clasp_core::HoldSettings::default(),
        )
        .unwrap();
    let dropped = open.directions.iter().filter(|d| !d.held).count();
    println!("opened: lets go in {dropped} of six directions");
    assert!(!open.held && dropped >= 4, "{open:?}");
}

/// Issue 55: with a test, the planner puts each grasp it closes through it, closes states until
/// the grasps asked for hold, and returns those first, each with its test; a grasp it returns
/// as held holds when tested again on its own. A test that nothing passes (an object may
/// weigh a tonne) leaves it closing every state it kept, and saying so.
#[test]
fn a_tested_plan_closes_until_the_grasps_asked_for_hold_and_returns_those_first() {
    let Some(models) = clasp_io::fixtures::graspit_models() else {
        return;
    };
    let world = scene(&models, "Barrett/Barrett.xml", "mug", false);
    let test = clasp_core::HoldSettings::default();
    let asked = PlanSettings {
        grasps: 3,
        test: Some(test),
        ..PlanSettings::default()
    };
    let found = plan(&world, &asked);
    let held = found.held().expect("its grasps were tested");
    println!(
        "{held} held of {}, {} closed, {} tested",
        found.grasps.len(),
        found.closed,
        found.tested
    );
    assert_eq!(held, 3, "the Barrett holds GraspIt's mug in most grasps");
    assert!(found.grasps[..3].iter().all(|g| g.held() == Some(true)));
    assert!(found.why_short_of_held(3).is_none());
    assert!(0 < found.tested && found.tested <= found.closed);
    let again = world.test_grasps(
        RobotId::from_index(0),
        BodyId::Free(0),
        &[found.grasps[0].grasp.clone()],
        &test,
    );
    assert!(again[0].as_ref().unwrap().held);
    let none_pass = PlanSettings {
        test: Some(clasp_core::HoldSettings {
            object_mass: Some(1.0e6),
            ..test
        }),
        steps: 500,
        searches: 1,
        ..asked
    };
    let short = plan(&world, &none_pass);
    assert_eq!(short.held(), Some(0));
    let why = short.why_short_of_held(3).expect("it says why");
    assert!(why.contains("budget ran out"), "{why}");
    assert!(short.grasps.iter().all(|g| g.held() != Some(true)));
}

/// How many of robot 0's bodies touch body 0.
fn bodies_on_object(world: &World) -> usize {
    let mut bodies: Vec<BodyId> = world
        .contacts_of(BodyId::Free(0))
        .map(|c| c.other)
        .filter(|b| b.robot().is_some())
        .collect();
    bodies.sort();
    bodies.dedup();
    bodies.len()
}

/// The Barrett lowered from above onto GraspIt's mug and glass on a table, at a few places and
/// turns: where Auto Grasp closes a finger onto the table, closing onto the object backs off
/// and closes again, never ending with fewer of the hand's bodies on the object, at some places
/// with more, and never in anything.
#[test]
fn closing_on_an_object_backs_off_from_the_table_under_it() {
    let Some(models) = clasp_io::fixtures::graspit_models() else {
        return;
    };
    let robot = RobotId::from_index(0);
    let (mut better, mut blocked) = (0, 0);
    for object in ["mug", "glass"] {
        for (k, x) in [-60.0, -30.0, 0.0, 30.0, 60.0].into_iter().enumerate() {
            let mut world = scene(&models, "Barrett/Barrett.xml", object, true);
            let down = UnitQuaternion::from_axis_angle(&Vector3::x_axis(), std::f64::consts::PI)
                * UnitQuaternion::from_axis_angle(&Vector3::z_axis(), 0.3 * k as f64);
            let above = Pose::from_parts(Translation3::new(x, 10.0, 300.0), down);
            world.set_pose(Element::Robot(robot), above).unwrap();
            world.approach_to_contact(robot, 400.0).unwrap();
            let mut plain = world.clone();
            let outcome = plain.auto_grasp(robot).unwrap();
            let on_table = outcome
                .stopped_by
                .iter()
                .any(|&(_, b)| b == BodyId::Free(1));
            world.close_on(robot, BodyId::Free(0)).unwrap();
            let (before, after) = (bodies_on_object(&plain), bodies_on_object(&world));
            println!(
                "{object} at x {x}: Auto Grasp touches it with {before} bodies (stopped by the table: {on_table}), closing on it with {after}"
            );
            assert!(after >= before, "{object} at x {x}: {after} < {before}");
            assert!(clasp_io::fixtures::interpenetrating(&world).is_empty());
            better += usize::from(after > before);
            blocked += usize::from(on_table);
        }
    }
    assert!(
        blocked > 0 && better > 0,
        "{blocked} blocked, {better} better"
    );
}

/// GraspIt's planner loops for ever when no state near the object is legal (its issue #131).
/// Here the mug is sealed inside a solid block: every state puts the hand in the block, the
/// searches still end, and the plan says why it found nothing.
#[test]
fn a_plan_with_nowhere_legal_to_go_ends_and_says_why() {
    let Some(models) = clasp_io::fixtures::graspit_models() else {
        return;
    };
    let mut world = scene(&models, "Barrett/Barrett.xml", "mug", false);
    let block = Body::from_mesh(
        "block",
        BodyKind::Obstacle,
        shapes::cuboid([-3000.0; 3], [3000.0; 3]),
    );
    world.add_body(block);
    let settings = PlanSettings {
        steps: 20,
        searches: 2,
        ..PlanSettings::default()
    };
    let found = plan(&world, &settings);
    assert!(found.grasps.is_empty());
    assert_eq!(found.steps, 40, "every search took its steps");
    assert_eq!(found.illegal_steps, 40);
    let why = found.why_empty().unwrap();
    println!("{why}");
    assert!(why.starts_with("no legal state was found"), "{why}");
    // A plan that found grasps has nothing to explain.
    let alone = scene(&models, "Barrett/Barrett.xml", "mug", false);
    let settings = PlanSettings {
        steps: 500,
        ..settings
    };
    assert_eq!(plan(&alone, &settings).why_empty(), None);
}

/// GraspIt's auto-grasp quality energy: every state is closed and scored, its energy
/// −(30 × volume + 100 × epsilon). With no approach before the final closing, each grasp the
/// plan returns is the closing its energy scored: the two agree to the bit.
#[test]
fn the_auto_grasp_energy_scores_each_state_by_closing_the_hand() {
    let Some(models) = clasp_io::fixtures::graspit_models() else {
        return;
    };
    let world = scene(&models, "Barrett/Barrett.xml", "mug", false);
    let settings = PlanSettings {
        steps: 40,
        searches: 2,
        approach: 0.0,
        energy: "autograsp".parse().unwrap(),
        ..PlanSettings::default()
    };
    let found = plan(&world, &settings);
    assert!(!found.grasps.is_empty());
    assert!(found.grasps[0].force_closure(), "the best closing holds");
    for g in &found.grasps {
        let quality = g.grasp.quality.as_ref().unwrap();
        let epsilon = quality.epsilon.unwrap_or(0.0).max(0.0);
        let energy = -(30.0 * quality.volume.unwrap_or(0.0)) - 100.0 * epsilon;
        assert_eq!(g.energy, energy);
        assert_clear(&world, &g.grasp, "auto-grasp energy");
    }
}

/// GraspIt's guided planner: the searches' best states seed child searches scored by closing
/// the hand (the strict auto-grasp energy, negative for a grasp of some quality); what the
/// children keep is closed with the rest, none of it in anything. Children's steps are their
/// own: the plan's steps stay the searches'.
#[test]
fn the_guided_planner_refines_its_best_states_by_closing_the_hand() {
    let Some(models) = clasp_io::fixtures::graspit_models() else {
        return;
    };
    let world = scene(&models, "Barrett/Barrett.xml", "mug", true);
    let plain = PlanSettings {
        steps: 1000,
        searches: 2,
        ..PlanSettings::default()
    };
    let guided = PlanSettings {
        guided: Some(clasp_core::GuidedPlanning {
            children: 3,
            child_steps: 15,
        }),
        ..plain
    };
    let (without, with) = (plan(&world, &plain), plan(&world, &guided));
    assert_eq!(with.steps, without.steps);
    assert!(
        with.evaluations > without.evaluations,
        "the children searched"
    );
    assert!(
        with.grasps.iter().any(|g| g.energy < 0.0),
        "a child's state is among the grasps: {:?}",
        with.grasps.iter().map(|g| g.energy).collect::<Vec<_>>()
    );
    assert!(with.grasps.iter().any(|g| g.force_closure()));
    for (k, g) in with.grasps.iter().enumerate() {
        assert_clear(&world, &g.grasp, &format!("guided grasp {k}"));
    }
    assert_eq!(
        plan(&world, &guided).grasps,
        with.grasps,
        "the same seed, the same grasps"
    );
}
