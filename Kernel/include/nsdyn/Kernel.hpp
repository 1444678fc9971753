/// @file Kernel.hpp
/// @brief Umbrella header of the nsdyn Kernel: include this one to write a driver.
#ifndef NSDYN_KERNEL_KERNEL_HPP
#define NSDYN_KERNEL_KERNEL_HPP

// algebra
#include "nsdyn/Error.hpp"
#include "nsdyn/SiconosVector.hpp"
#include "nsdyn/SimpleMatrix.hpp"

// dynamical systems
#include "nsdyn/DynamicalSystem.hpp"
#include "nsdyn/FirstOrderLinearDS.hpp"
#include "nsdyn/FirstOrderLinearTIDS.hpp"
#include "nsdyn/LagrangianDS.hpp"
#include "nsdyn/LagrangianLinearTIDS.hpp"
#include "nsdyn/NewtonEulerDS.hpp"
#include "nsdyn/SecondOrderDS.hpp"

// relations
#include "nsdyn/FirstOrderLinearR.hpp"
#include "nsdyn/FirstOrderLinearTIR.hpp"
#include "nsdyn/LagrangianLinearTIR.hpp"
#include "nsdyn/LagrangianR.hpp"
#include "nsdyn/LagrangianScleronomousR.hpp"
#include "nsdyn/Relation.hpp"

// nonsmooth laws
#include "nsdyn/ComplementarityConditionNSL.hpp"
#include "nsdyn/EqualityConditionNSL.hpp"
#include "nsdyn/MixedComplementarityConditionNSL.hpp"
#include "nsdyn/NewtonImpactFrictionNSL.hpp"
#include "nsdyn/NewtonImpactNSL.hpp"
#include "nsdyn/NonSmoothLaw.hpp"
#include "nsdyn/RelayNSL.hpp"

// structure
#include "nsdyn/Interaction.hpp"
#include "nsdyn/Model.hpp"
#include "nsdyn/NonSmoothDynamicalSystem.hpp"
#include "nsdyn/Topology.hpp"
#include "nsdyn/UnitaryRelation.hpp"

// simulation
#include "nsdyn/CvodeOSI.hpp"
#include "nsdyn/EulerMoreauOSI.hpp"
#include "nsdyn/Event.hpp"
#include "nsdyn/EventDriven.hpp"
#include "nsdyn/EventStatistics.hpp"
#include "nsdyn/EventsManager.hpp"
#include "nsdyn/FrictionContact.hpp"
#include "nsdyn/GenericMechanical.hpp"
#include "nsdyn/LCP.hpp"
#include "nsdyn/MLCP.hpp"
#include "nsdyn/MoreauJeanDirectProjectionOSI.hpp"
#include "nsdyn/MoreauJeanOSI.hpp"
#include "nsdyn/OneStepIntegrator.hpp"
#include "nsdyn/OneStepNSProblem.hpp"
#include "nsdyn/Relay.hpp"
#include "nsdyn/RollingFrictionContact.hpp"
#include "nsdyn/Simulation.hpp"
#include "nsdyn/StepStatistics.hpp"
#include "nsdyn/TimeDiscretisation.hpp"
#include "nsdyn/TimeStepping.hpp"
#include "nsdyn/TimeSteppingDirectProjection.hpp"

// mechanics: rigid-body relations and joints
#include "nsdyn/FixedJointR.hpp"
#include "nsdyn/JointAxisR.hpp"
#include "nsdyn/KneeJointR.hpp"
#include "nsdyn/NewtonEuler1DR.hpp"
#include "nsdyn/NewtonEuler3DR.hpp"
#include "nsdyn/NewtonEulerJointR.hpp"
#include "nsdyn/NewtonEulerR.hpp"
#include "nsdyn/PivotJointR.hpp"
#include "nsdyn/PrismaticJointR.hpp"
#include "nsdyn/Quaternion.hpp"

// mechanics: shapes, mass properties and closed-form contact geometry
#include "nsdyn/BodyFactory.hpp"
#include "nsdyn/BodyShapes.hpp"
#include "nsdyn/BoxShape.hpp"
#include "nsdyn/CapsuleShape.hpp"
#include "nsdyn/ContactDetector.hpp"
#include "nsdyn/ContactManager.hpp"
#include "nsdyn/ContactSet.hpp"
#include "nsdyn/ConvexHullShape.hpp"
#include "nsdyn/CylinderShape.hpp"
#include "nsdyn/DetectionOptions.hpp"
#include "nsdyn/HalfSpaceShape.hpp"
#include "nsdyn/HeightfieldShape.hpp"
#include "nsdyn/InteractionManager.hpp"
#include "nsdyn/MassProperties.hpp"
#include "nsdyn/SceneGenerators.hpp"
#include "nsdyn/Shape.hpp"
#include "nsdyn/ShapeInstance.hpp"
#include "nsdyn/SphereShape.hpp"
#include "nsdyn/TerrainShape.hpp"
#include "nsdyn/TriangleMeshShape.hpp"

#endif
