//! Drops judged by means independent of the engine (`clasp_io::drops`): GraspIt's mug from
//! random poses onto a table, every object of GraspIt's library onto GraspIt's table, and the
//! box of issue 41 that froze. Rest is judged by the pose over time and the speed both,
//! interpenetration by the brute-force reference engine, energy against what was released.
//! Needs GraspIt's model library.

use clasp_core::{BodyKind, Material, Pose, World};
use clasp_io::{
    Disk,
    drops::{
        Drop, Ending, Verdict, drop_world, graspit_table, judge, library_objects, plain_table,
        random_drops, random_turns, turned_above_floor,
    },
    fixtures::graspit_models,
    load_body,
};
use nalgebra::{Quaternion, Translation3, UnitQuaternion};
use rayon::prelude::*;

/// Mug drops tried.
const MUG_DROPS: usize = 50;

/// How each of 50 drops of GraspIt's mug from random turns, 5 mm above a 600 mm table, ends
/// after `seconds`; of `material` where given (GraspIt's mug is glass).
fn drop_mugs(seconds: f64, material: Option<Material>) -> Option<Vec<Ending>> {
    let models = graspit_models()?;
    let mut mug = load_body(&Disk, &models.join("objects/mug.xml"), BodyKind::Graspable).unwrap();
    if let Some(material) = material {
        mug.material = material;
    }
    let table = plain_table();
    let turns = random_turns(MUG_DROPS, 2026);
    let ends = turns
        .par_iter()
        .map(|turn| {
            // The mug turned, its lowest point 5 mm above the table's top.
            let dropped = turned_above_floor(&mug, *turn, 5.0).unwrap();
            judge(World::new(vec![table.clone(), dropped], vec![]), seconds)
        })
        .collect();
    Some(ends)
}

/// Drops that did not end at rest or moving as their velocity says, by index.
fn wrong(ends: &[Ending]) -> Vec<String> {
    ends.iter()
        .enumerate()
        .filter(|(_, e)| !matches!(e.verdict, Verdict::Rest | Verdict::Moving))
        .map(|(k, e)| format!("drop {k}: {:?}", e.verdict))
        .collect()
}

#[test]
fn graspits_mug_dropped_from_random_poses_never_freezes_gains_energy_or_passes_into_the_table() {
    let Some(ends) = drop_mugs(1.0, None) else {
        return;
    };
    let wrong = wrong(&ends);
    assert!(wrong.is_empty(), "{wrong:?}");
}

#[test]
fn graspits_mug_dropped_from_random_poses_comes_to_rest_where_friction_stops_it() {
    // At rest by pose and speed both: slower than 1 mm/s and still within 0.1 mm over the
    // last 0.1 s (before issue 41 the speed alone judged, and frozen drops read as "still
    // rolling"); those that move must move as their velocity says. The drops that do not rest
    // by 3 s rolled off the 600 mm table and fall, or still rock on the rim of their bottoms
    // or roll on their sides, losing energy at each rocking impact (rigid rolling has no
    // resistance).
    // Measured: glass (as GraspIt ships the mug) 29 of 50 at rest, plastic 29, frictionless 14.
    let mut at_rest = Vec::new();
    for (name, material) in [
        ("glass", None),
        ("plastic", Some(Material::Plastic)),
        ("frictionless", Some(Material::Frictionless)),
    ] {
        let Some(ends) = drop_mugs(3.0, material) else {
            return;
        };
        let wrong_ends = wrong(&ends);
        assert!(wrong_ends.is_empty(), "{name}: {wrong_ends:?}");
        let resting = ends.iter().filter(|e| e.verdict == Verdict::Rest).count();
        println!("{name}: {resting} of {MUG_DROPS} at rest after 3 s");
        at_rest.push(resting);
    }
    let [glass, plastic, frictionless] = at_rest[..] else {
        unreachable!()
    };
    assert!(
        glass * 2 >= MUG_DROPS && plastic * 2 >= MUG_DROPS,
        "{at_rest:?}"
    );
    // Frictionless, nothing stops a mug that lands with any sideways speed: it slides on for
    // ever, as it should.
    assert!(frictionless < glass, "{at_rest:?}");
}

#[test]
fn every_object_of_graspits_library_dropped_on_its_table_never_freezes_gains_energy_or_passes_in() {
    let Some(models) = graspit_models() else {
        return;
    };
    let objects = library_objects(&models);
    assert!(objects.len() >= 40, "{} objects load", objects.len());
    let table = graspit_table(&models).unwrap();
    // Two seeded drops of each object, 20–80 mm above the table, 3 s each.
    let drops = random_drops(&objects, 2, 41);
    let ends: Vec<(&Drop, Ending)> = drops
        .par_iter()
        .map(|drop| {
            let object = &objects.iter().find(|(n, _)| *n == drop.object).unwrap().1;
            (drop, judge(drop_world(&table, object, drop).unwrap(), 3.0))
        })
        .collect();
    // GraspIt's own files give the gun a zero inertia and the flask (and its plated copy) one
    // that is not symmetric: repaired on loading (the mesh's, the symmetric part), they drop
    // as every other object does; none is refused.
    let refused: Vec<&str> = ends
        .iter()
        .filter_map(|(drop, end)| match &end.verdict {
            Verdict::Failed(why) if why.contains("has an inertia that is not") => {
                Some(drop.object.as_str())
            }
            _ => None,
        })
        .collect();
    assert!(refused.is_empty(), "{refused:?}");
    let simulated: Vec<&(&Drop, Ending)> = ends.iter().collect();
    assert!(simulated.len() >= 40, "{} drops", simulated.len());
    let wrong: Vec<String> = simulated
        .iter()
        .filter(|(_, e)| !matches!(e.verdict, Verdict::Rest | Verdict::Moving))
        .map(|(d, e)| format!("{} from {:?}: {:?}", d.object, d.turn, e.verdict))
        .collect();
    assert!(wrong.is_empty(), "{wrong:?}");
    let at_rest = simulated
        .iter()
        .filter(|(_, e)| e.verdict == Verdict::Rest)
        .count();
    println!("{at_rest} of {} drops at rest after 3 s", simulated.len());
    // Round bodies (cylinders, glasses, plates on their rims) may still roll at 3 s; most
    // bodies rest.
    assert!(
        at_rest * 4 >= simulated.len() * 3,
        "{at_rest} of {}",
        simulated.len()
    );
}

#[test]
fn graspits_box_that_froze_in_issue_41_rests_on_the_table_by_one_second() {
    let Some(models) = graspit_models() else {
        return;
    };
    let table = graspit_table(&models).unwrap();
    let box_body = load_body(&Disk, &models.join("objects/box.xml"), BodyKind::Graspable).unwrap();
    // The world of issue 41, as GraspIt writes it: (qw qx qy qz)[x y z].
    let turn = UnitQuaternion::from_quaternion(Quaternion::new(
        -0.11975696088556013,
        0.3131002808207005,
        0.9396547347481176,
        0.06837736419969487,
    ));
    let at = Translation3::new(-6.526992743478218, 3.6069116950920375, 161.68468549359275);
    let world = World::new(vec![table, box_body.at(Pose::from_parts(at, turn))], vec![]);
    let end = judge(world, 1.0);
    assert_eq!(end.verdict, Verdict::Rest, "{end:?}");
    assert!(end.speed < 1.0 && end.travel < 0.1, "{end:?}");
}
