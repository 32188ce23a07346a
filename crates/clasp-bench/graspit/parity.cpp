// GraspIt's own reading of a grasp, for Clasp's parity harness (issue 32;
// crates/clasp-bench/graspit/parity.sh): for each world file, the contacts GraspIt finds between
// its first hand and its first graspable body, and the grasp's quality as GraspIt's quality
// dialog computes it (epsilon and volume on the "L1 Norm" grasp wrench space). A GraspIt
// plugin: GraspIt loads it with `--plugin`, starts it, and calls mainLoop when idle; the first
// call reads every world and exits.
//
// One JSON object a line: the file; whether it loaded; the hand's name; each contact of the
// hand on the object (the link's name, the object's name, the point and the link's normal in
// the world frame, the coefficient of friction, GraspIt's friction type, its friction edges
// (count, largest torsion, all finite), its mate's point, normal and friction edges on the
// object, world frame, and the two points' separation); epsilon and volume
// (GraspIt's -1 for epsilon where the grasp is not force-closure is kept as it is). All with
// every pair of the hand and the object checked; `as_loaded` holds the same as GraspIt reads
// the file, with the pairs it switched off while loading (see read()).
//
// Environment: CLASP_WORLDS (world files, comma-separated); CLASP_CLOSE_INTO (a folder: instead
// of reading them, close each world's hand with GraspIt's Auto Grasp and save it there).

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "plugin_environment.h"

#include "graspit/plugin.h"
#include "graspit/graspitCore.h"
#include "graspit/world.h"
#include "graspit/robot.h"
#include "graspit/body.h"
#include "graspit/grasp.h"
#include "graspit/contact/contact.h"
#include "graspit/quality/qualEpsilon.h"
#include "graspit/quality/qualVolume.h"

namespace {

std::string number(double x)
{
  char text[32];
  snprintf(text, sizeof text, "%.17g", x);
  return text;
}

std::string triple(double x, double y, double z)
{
  return "[" + number(x) + ", " + number(y) + ", " + number(z) + "]";
}

std::string quoted(const QString &text)
{
  return "\"" + text.toStdString() + "\"";
}

// A contact's friction edges: how many, the largest torsion an edge carries (for a soft
// contact, the torsional friction's radius, mm), and whether every component is finite.
std::string edges_json(const Contact *contact)
{
  double torsion = 0.0;
  bool finite = true;
  for (int e = 0; e < contact->numFrictionEdges; ++e) {
    for (int k = 0; k < 6; ++k) { finite = finite && std::isfinite(contact->frictionEdges[6 * e + k]); }
    torsion = std::max(torsion, std::fabs(contact->frictionEdges[6 * e + 5]));
  }
  return "{\"count\": " + std::to_string(contact->numFrictionEdges) + ", \"torsion\": " +
         number(torsion) + ", \"finite\": " + (finite ? "true" : "false") + "}";
}

std::string contact_json(Contact *contact)
{
  // GraspIt's transf times a vector is its rotation and translation; a direction is turned
  // by the rotation alone.
  const transf &link = contact->getBody1()->getTran();
  position at = link * contact->getPosition();
  vec3 normal = link.rotation() * contact->getNormal();
  std::string json = "{\"link\": " + quoted(contact->getBody1()->getName()) +
                     ", \"object\": " + quoted(contact->getBody2()->getName()) +
                     ", \"point\": " + triple(at.x(), at.y(), at.z()) +
                     ", \"normal\": " + triple(normal.x(), normal.y(), normal.z()) +
                     ", \"cof\": " + number(contact->getCof()) +
                     ", \"friction_type\": " + std::to_string(int(contact->getFrictionType())) +
                     ", \"edges\": " + edges_json(contact);
  if (Contact *mate = contact->getMate()) {
    const transf &object = contact->getBody2()->getTran();
    position there = object * mate->getPosition();
    vec3 outward = object.rotation() * mate->getNormal();
    json += ", \"object_point\": " + triple(there.x(), there.y(), there.z()) +
            ", \"object_normal\": " + triple(outward.x(), outward.y(), outward.z()) +
            ", \"object_edges\": " + edges_json(mate) +
            ", \"separation\": " + number((at - there).norm());
  }
  return json + "}";
}

// The contacts of the hand on the object as GraspIt finds them now, and the quality.
std::string grasp_json(World *world, Grasp *grasp, QualEpsilon &epsilon, QualVolume &volume)
{
  world->findAllContacts();
  grasp->update();
  std::string json = "\"contacts\": [";
  for (int i = 0; i < grasp->getNumContacts(); ++i) {
    json += (i ? ", " : "") + contact_json(grasp->getContact(i));
  }
  return json + "], \"epsilon\": " + number(epsilon.evaluate()) +
         ", \"volume\": " + number(volume.evaluate());
}

void read(const std::string &file)
{
  graspitCore->emptyWorld();
  World *world = graspitCore->getWorld();
  bool loaded = world->load(QString::fromStdString(file)) == SUCCESS;
  std::string json = "{\"file\": \"" + file + "\", \"loaded\": " + (loaded ? "true" : "false");
  if (loaded && world->getNumHands() > 0 && world->getNumGB() > 0) {
    Hand *hand = world->getHand(0);
    Grasp *grasp = hand->getGrasp();
    grasp->setObject(world->getGB(0));
    // The measures add their wrench space to the grasp; each update then builds it.
    QualEpsilon epsilon(grasp, "parity_epsilon", "L1 Norm");
    QualVolume volume(grasp, "parity_volume", "L1 Norm");
    // World::addRobot disables every pair within the contact threshold while the new robot
    // stands at the origin with its default DOFs, before the file's pose and DOF values are
    // applied: a grasp of an object at the origin loses those pairs' contacts. Read as loaded,
    // then with the hand's pairs with the object switched back on.
    std::string as_loaded = grasp_json(world, grasp, epsilon, volume);
    world->toggleCollisions(true, hand, world->getGB(0));
    json += ", \"hand\": " + quoted(hand->getName()) + ", " +
            grasp_json(world, grasp, epsilon, volume) + ", \"as_loaded\": {" + as_loaded + "}";
  }
  printf("%s}\n", json.c_str());
  fflush(stdout);
}

// GraspIt's own grasp of a world: its first hand closed by Auto Grasp, the world saved into
// `folder` under the same name, for the harness to read as it reads Clasp's grasps.
void close_and_save(const std::string &file, const std::string &folder)
{
  graspitCore->emptyWorld();
  World *world = graspitCore->getWorld();
  if (world->load(QString::fromStdString(file)) != SUCCESS || world->getNumHands() == 0) {
    return;
  }
  world->getHand(0)->autoGrasp(false, 1.0);
  std::string name = file.substr(file.find_last_of('/') + 1);
  world->save(QString::fromStdString(folder + "/" + name));
}

class Parity : public Plugin
{
  public:
    int init(int, char **) override { return SUCCESS; }

    int mainLoop() override
    {
      std::string close_into = environment("CLASP_CLOSE_INTO", "");
      for (const std::string &file : worlds()) {
        if (close_into.empty()) {
          read(file);
        } else {
          close_and_save(file, close_into);
        }
      }
      exit(0);
    }
};

}  // namespace

CLASP_PLUGIN_ENTRY_POINTS(Parity, "clasp parity")
