// Opens world files in GraspIt and says where GraspIt put the hand, so that a grasp Clasp
// planned and saved can be checked in GraspIt itself (crates/clasp-bench/graspit/
// check_saved_grasps.sh). A GraspIt plugin: GraspIt loads it with `--plugin`, starts it, and
// calls mainLoop when idle; the first call does the whole check and exits.
//
// For each world: whether GraspIt loaded it; the first robot's pose and DOF values; each of
// its bodies' poses (the base, then chain by chain, link by link; GraspIt names them "Base"
// and "_chain0_link0", the robot's name left off); which pairs of bodies
// GraspIt finds interpenetrating; and how many contacts GraspIt finds between the robot and
// the first graspable body. One JSON object a line.
//
// Environment: CLASP_WORLDS (world files, comma-separated).

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include "plugin_environment.h"

#include "graspit/plugin.h"
#include "graspit/graspitCore.h"
#include "graspit/world.h"
#include "graspit/robot.h"
#include "graspit/body.h"
#include "graspit/dof.h"
#include "graspit/kinematicChain.h"

namespace {

// {"translation": [x, y, z], "rotation_wxyz": [w, x, y, z]}, as `clasp-cli inspect` writes.
std::string pose(const transf &t)
{
  char text[256];
  const vec3 &p = t.translation();
  const Quaternion &q = t.rotation();
  snprintf(text, sizeof text,
           "{\"translation\": [%.17g, %.17g, %.17g], \"rotation_wxyz\": [%.17g, %.17g, %.17g, %.17g]}",
           p.x(), p.y(), p.z(), q.w(), q.x(), q.y(), q.z());
  return text;
}

std::string quoted(const QString &text)
{
  return "\"" + text.toStdString() + "\"";
}

std::string robot_json(Robot *robot)
{
  std::string json = "{\"name\": " + quoted(robot->getName()) + ", \"pose\": " +
                     pose(robot->getTran()) + ", \"dof_values\": [";
  for (int d = 0; d < robot->getNumDOF(); ++d) {
    char value[32];
    snprintf(value, sizeof value, "%.17g", robot->getDOF(d)->getVal());
    json += (d ? ", " : "") + std::string(value);
  }
  json += "], \"bodies\": [{\"name\": " + quoted(robot->getBase()->getName()) +
          ", \"pose\": " + pose(robot->getBase()->getTran()) + "}";
  for (int c = 0; c < robot->getNumChains(); ++c) {
    KinematicChain *chain = robot->getChain(c);
    for (int l = 0; l < chain->getNumLinks(); ++l) {
      Link *link = chain->getLink(l);
      json += ", {\"name\": " + quoted(link->getName()) + ", \"pose\": " +
              pose(link->getTran()) + "}";
    }
  }
  return json + "]}";
}

std::string interpenetrating(World *world)
{
  CollisionReport report;
  world->getCollisionReport(&report);
  std::string json = "[";
  for (size_t i = 0; i < report.size(); ++i) {
    json += (i ? ", [" : "[") + quoted(report[i].first->getName()) + ", " +
            quoted(report[i].second->getName()) + "]";
  }
  return json + "]";
}

void check(const std::string &file)
{
  graspitCore->emptyWorld();
  World *world = graspitCore->getWorld();
  bool loaded = world->load(QString::fromStdString(file)) == SUCCESS;
  std::string json = "{\"file\": \"" + file + "\", \"loaded\": " + (loaded ? "true" : "false");
  if (loaded && world->getNumRobots() > 0) {
    Robot *robot = world->getRobot(0);
    world->findAllContacts();
    int contacts = world->getNumGB() > 0 ? robot->getNumContacts(world->getGB(0)) : 0;
    json += ", \"robot\": " + robot_json(robot) + ", \"interpenetrating\": " +
            interpenetrating(world) + ", \"contacts_on_object\": " + std::to_string(contacts);
  }
  printf("%s}\n", json.c_str());
  fflush(stdout);
}

class WorldCheck : public Plugin
{
  public:
    int init(int, char **) override { return SUCCESS; }

    int mainLoop() override
    {
      for (const std::string &file : worlds()) { check(file); }
      exit(0);
    }
};

}  // namespace

CLASP_PLUGIN_ENTRY_POINTS(WorldCheck, "clasp world check")
